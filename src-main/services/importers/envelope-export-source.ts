import { fileDiagnostic } from '../../../src-shared/recording/diagnostics';
import { isJsonObject, parseJson } from '../../../src-shared/json/values';
import {
  isLegHeadObject,
  readExportedEnvelope,
  readLegHead,
  type ExportedEnvelope,
  type ExportedLegHead,
  type ReadLegHead,
} from '../../../src-shared/recording/envelope-export';
import { payloadToSse } from '../../../src-shared/recording/items';
import type { Findings } from './findings';
import { itemConverter, ndjsonLines } from './items-source';
import { reiterable, type SourceFs } from './source-file';
import type { ImportedChunk, ImportedLeg, ImportedSource } from './types';

/**
 * An NDJSON file this inspector exported ("Envelopes (NDJSON)", src-shared/recording/envelope-export.ts).
 * Its lines carry each event's bytes (`wire`): each leg is those bytes again, each event's as
 * its own chunk at its receive time, and decodes as the stream it came from. Each leg's head
 * line gives it back its request, response, start, whether it was a stream and how it ended
 * (and the bytes of a leg without envelopes); a head line that is not valid is reported and
 * its leg read without it. An export without
 * them is read from its envelopes: each sent as what the wire carried for it, in the leg it
 * came from. A line that is not an exported envelope is read as any NDJSON item, in the leg of
 * the line before, in an export without wire bytes; in one with them it is reported and
 * skipped (JSON sent among a stream's own bytes would be read as part of them).
 * Null when the file's first line is not an exported envelope.
 */
export async function openEnvelopeExport(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
): Promise<ImportedSource | null> {
  const lines = () => ndjsonLines(path, fs, findings, bodyOffset, 'envelope');
  // The first line says whether this is an export, and whether it carries the wire; leaving the loop closes the file.
  let first: ExportLine | null = null;
  for await (const { text } of lines()) {
    first = exportLine(text);
    break;
  }
  if (!first) return null;
  // Exports with head lines always carry the wire.
  const withWire = first.kind !== 'envelope' || first.wire !== undefined;
  let legs = 1;
  let leg = 0;
  const heads = new Map<number, ExportedLegHead>();
  for await (const { text, offset, line } of lines()) {
    const read = exportLine(text);
    if (read?.kind === 'bad-head')
      skipped(findings, `Line ${line} (byte ${offset}) is a leg's head line, but ${read.reason}`, offset, line);
    if (read?.kind === 'head') heads.set(read.leg, read);
    leg = read?.leg ?? leg;
    legs = Math.max(legs, leg + 1);
  }

  async function* legChunks(wanted: number): AsyncGenerator<ImportedChunk> {
    const ready: ImportedChunk[] = [];
    const convert = itemConverter(findings, ready);
    let current = 0;
    for await (const { text, offset, line } of lines()) {
      const read = exportLine(text);
      current = read?.leg ?? current;
      if (current !== wanted || read?.kind === 'bad-head') continue;
      if (!read) {
        if (withWire) skipped(findings, `Line ${line} (byte ${offset}) is no exported envelope`, offset, line);
        else convert(text, `Line ${line}`, offset, line);
      } else if (read.wire === 'malformed')
        skipped(
          findings,
          `Line ${line} (byte ${offset}) has wire bytes that are no string, or not the base64 it says`,
          offset,
          line,
        );
      else if (read.wire) ready.push({ bytes: read.wire, receivedAt: read.receivedAt });
      else if (read.kind === 'envelope' && !withWire && read.data !== null)
        ready.push({ bytes: payloadToSse(read.data), receivedAt: 0 });
      yield* ready.splice(0);
    }
  }

  const imported: ImportedLeg[] = [];
  for (let index = 0; index < legs; index++) {
    const head = heads.get(index);
    imported.push({ index, chunks: reiterable(() => legChunks(index)), ...(head ? headedLeg(head) : {}) });
  }
  const legCount = legs === 1 ? 'one leg' : `${legs} legs`;
  const decodeAs = [...heads.values()].find((head) => head.decodeAs !== undefined)?.decodeAs;
  return {
    kind: 'ndjson-envelopes',
    path,
    size,
    ...(decodeAs !== undefined ? { decodeAs } : {}),
    legs: imported,
    actions: [],
    notes: withWire
      ? [
          `Envelopes exported by this inspector, with each event's bytes: the stream is decoded again from them, each event as its own chunk at its receive time (${legCount}).`,
          heads.size > 0
            ? "Each leg's request, response and end are the export's, secrets redacted; a dialect the user chose for the session is chosen again."
            : 'The export holds no request or response head (it was written before they were kept): a dialect that was chosen by a header, a URL or by hand is detected from the bytes again, and each leg ends as its bytes do.',
        ]
      : [
          `Envelopes exported by this inspector: each is sent again, as its own chunk at time 0, in the leg it came from (${legCount}).`,
          'The export holds the envelopes, not the wire: each is sent as a JSON envelope, [DONE] where the stream had it; XML open tags and provider events are left out, and findings that only the wire showed (its framing and sizes) are not made again.',
        ],
    diagnostics: findings.list,
  };
}

/** A line whose bytes cannot be sent: reported as lost (an error: the session is not whole). */
function skipped(findings: Findings, what: string, offset: number, line: number): void {
  findings.report(fileDiagnostic('import.skipped-item', `${what}; skipped.`, offset, { line }));
}

/** What a leg's head line gives the imported leg: its exchange, whether it was a stream, how it ended. */
function headedLeg(head: ExportedLegHead): Omit<ImportedLeg, 'index' | 'chunks'> {
  return {
    ...(head.request ? { request: head.request } : {}),
    ...(head.response ? { response: head.response } : {}),
    startedAt: head.startedAt,
    stream: head.stream,
    outcome: head.end,
  };
}

/** A line of an export: an envelope, a leg's head, or a head line that is not valid (with why). */
type ExportLine =
  | (ExportedEnvelope & { kind: 'envelope' })
  | (ReadLegHead & { kind: 'head' })
  | { kind: 'bad-head'; leg?: undefined; reason: string };

function exportLine(text: string): ExportLine | null {
  const parsed = parseJson(text);
  if (!parsed.ok || !isJsonObject(parsed.value)) return null;
  if (isLegHeadObject(parsed.value)) {
    const head = readLegHead(parsed.value);
    return typeof head === 'string' ? { kind: 'bad-head', reason: head } : { ...head, kind: 'head' };
  }
  const envelope = readExportedEnvelope(parsed.value);
  return envelope && { ...envelope, kind: 'envelope' };
}
