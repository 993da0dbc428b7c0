import {
  describeHarEntry,
  harEntryToLeg,
  summarizeHarEntry,
  type HarEntrySummary,
  type HarLeg,
} from '../../../src-shared/recording/har';
import { createJsonArraySplitter } from '../../../src-shared/recording/json-array-splitter';
import { framingOfHead, isStreamResponse } from '../../../src-shared/pipeline/leg-framing';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import { CAPTURE_BLOCK } from './sse-source';
import { HarEntryChoiceError, ImportError, type ImportedChunk, type ImportedLeg, type ImportedSource } from './types';

/**
 * HAR files: one streaming pass lists `log.entries` (each entry parsed on its own, so the
 * file is never one string), then the chosen entries become the legs. Without a choice, a
 * HAR this inspector exported (every entry says how its leg ended) opens as the session it
 * was, every entry a leg; any other takes its only stream entry (`isStream`: SSE, NDJSON, a
 * line-framed wire's header), and with several the
 * caller must choose (the error lists every entry).
 */

interface EntryLocation {
  summary: HarEntrySummary;
  byteStart: number;
  byteEnd: number;
}

export async function openHar(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
  choice?: number | readonly number[],
): Promise<ImportedSource> {
  const entries: EntryLocation[] = [];
  const splitter = createJsonArraySplitter(
    {
      onElement(element) {
        let value: unknown;
        try {
          value = JSON.parse(element.text);
        } catch {
          findings.report({
            rule: 'import.skipped-item',
            message: `HAR entry ${element.index} (byte ${element.byteStart}) is not valid JSON; skipped.`,
            at: { fileOffset: element.byteStart },
          });
          return;
        }
        entries.push({
          summary: summarizeHarEntry(value, element.index),
          byteStart: element.byteStart,
          byteEnd: element.byteEnd,
        });
      },
      onDiagnostic: findings.report,
    },
    { path: ['log', 'entries'], itemName: 'HAR entry', startOffset: bodyOffset },
  );
  for await (const block of readRange(fs, path, bodyOffset)) {
    splitter.push(block);
    if (splitter.closed) break;
  }
  const summary = splitter.end();
  if (!summary.found)
    throw new ImportError('unrecognised', path, `${path}: a HAR file must hold log.entries; none was found.`);

  const streams = entries.filter((e) => e.summary.isStream);
  const chosen = choose(path, entries, streams, choice);
  const legs: ImportedLeg[] = [];
  for (const [index, location] of chosen.entries()) {
    const leg = await readEntry(path, fs, location);
    const end = location.summary.legEnd;
    legs.push({
      index,
      request: leg.request,
      response: leg.response,
      // What the inspector that wrote it decided, else its head and body, as they would live:
      // a JSON body is a stream when it is an array.
      stream: location.summary.decoded ?? isStreamResponse(leg.response, framingOfHead(leg.body) === 'json-array'),
      ...(end ? { outcome: end } : {}),
      byteCount: leg.body.length,
      chunks: reiterable(() => entryChunks(path, fs, location)),
    });
  }
  const notes = [
    `HAR entr${chosen.length === 1 ? 'y' : 'ies'} ${chosen.map((e) => describeHarEntry(e.summary)).join('; ')}.`,
    'A HAR file keeps no per-chunk timing: each body is read in 64 KiB blocks, all at the time its first byte arrived.',
  ];
  if (streams.length > 1)
    notes.push(`The file holds ${streams.length} stream entries; others can be opened by their number.`);
  for (const location of chosen)
    if (!location.summary.hasBody)
      notes.push(`Entry #${location.summary.index} has no saved response body (browsers often drop streamed bodies).`);
  const decodeAs = chosen.find((location) => location.summary.decodeAs !== undefined)?.summary.decodeAs;
  return {
    kind: 'har',
    path,
    size,
    ...(decodeAs !== undefined ? { decodeAs } : {}),
    legs,
    actions: [],
    notes,
    diagnostics: findings.list,
    harEntries: entries.map((e) => e.summary),
  };
}

function choose(
  path: string,
  entries: EntryLocation[],
  streams: EntryLocation[],
  choice: number | readonly number[] | undefined,
): EntryLocation[] {
  if (choice !== undefined) {
    const wanted = typeof choice === 'number' ? [choice] : choice;
    return wanted.map((n) => {
      const found = entries.find((e) => e.summary.index === n);
      if (!found)
        throw new ImportError(
          'bad-har-entry',
          path,
          `${path}: the HAR file has no entry #${n} (it has ${entries.length}, numbered from 0).`,
        );
      return found;
    });
  }
  // The legs of a session this inspector exported, in order.
  if (entries.length > 0 && entries.every((e) => e.summary.legEnd)) return entries;
  const only = streams[0];
  if (streams.length === 1 && only) return [only];
  if (streams.length === 0) {
    const listing = entries
      .slice(0, 20)
      .map((e) => `  ${describeHarEntry(e.summary)}`)
      .join('\n');
    throw new ImportError(
      'unrecognised',
      path,
      `${path}: the HAR file holds no stream entry (text/event-stream, NDJSON or a line-framed stream) (${entries.length} entries${entries.length ? `:\n${listing}` : ''}).`,
    );
  }
  const listing = streams.map((e) => `  ${describeHarEntry(e.summary)}`).join('\n');
  // The message is the CLI's (the app lists `entries` in its picker instead: file-session.ts), so it names the flag.
  throw new HarEntryChoiceError(
    path,
    `${path}: the HAR file holds ${streams.length} stream entries; choose one with --har-entry N (several, in order, as the legs of one session: --har-entry N,M):\n${listing}`,
    entries.map((e) => e.summary),
  );
}

async function readEntry(path: string, fs: SourceFs, location: EntryLocation): Promise<HarLeg> {
  const parts: Uint8Array[] = [];
  for await (const block of readRange(fs, path, location.byteStart, location.byteEnd)) parts.push(block);
  const leg = harEntryToLeg(JSON.parse(Buffer.concat(parts).toString('utf8')));
  if (typeof leg === 'string')
    throw new ImportError('bad-har-entry', path, `${path}: HAR entry #${location.summary.index}: ${leg}.`);
  return leg;
}

async function* entryChunks(path: string, fs: SourceFs, location: EntryLocation): AsyncGenerator<ImportedChunk> {
  const leg = await readEntry(path, fs, location);
  for (let i = 0; i < leg.body.length; i += CAPTURE_BLOCK)
    yield { bytes: leg.body.slice(i, i + CAPTURE_BLOCK), receivedAt: leg.receivedAt };
}
