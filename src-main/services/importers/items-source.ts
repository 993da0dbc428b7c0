import { parseJson } from '../../../src-shared/json/values';
import { fileDiagnostic } from '../../../src-shared/recording/diagnostics';
import { convertItem, payloadToSse } from '../../../src-shared/recording/items';
import { createJsonArraySplitter } from '../../../src-shared/recording/json-array-splitter';
import { createByteLineSplitter } from '../../../src-shared/recording/lines';
import type { SourceKind } from '../../../src-shared/recording/types';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import type { ImportedChunk, ImportedSource } from './types';

/**
 * NDJSON files and JSON arrays of envelopes or Anthropic events, and NDJSON of any stream's
 * events. Each item becomes one SSE event and one chunk (`data: <item>\n\n`), so the shared
 * decoder reads them like a stream.
 * The file is streamed: memory stays bounded by the largest item.
 */
export function openItems(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  kind: SourceKind,
  container: 'ndjson' | 'json-array',
  bodyOffset: number,
): ImportedSource {
  const itemName = kind === 'anthropic-events' || kind === 'ndjson-events' ? 'event' : 'envelope';
  const layout = container === 'ndjson' ? 'line' : 'array item';
  const notes = [
    `Each ${itemName} (one per ${layout}) becomes one SSE event, data: <json>, sent as its own chunk at time 0: the file keeps no network chunking or timing.`,
    container === 'json-array'
      ? 'Whitespace between JSON tokens is removed so a pretty-printed item fits one data: line; string contents are unchanged.'
      : 'Lines are sent as written.',
    'Nothing is added: a file without a [DONE] item decodes as a stream that ended without [DONE].',
  ];
  const chunks =
    container === 'ndjson'
      ? () => ndjsonChunks(path, fs, findings, bodyOffset, itemName)
      : () => arrayChunks(path, fs, findings, bodyOffset, itemName);
  return {
    kind,
    path,
    size,
    legs: [{ index: 0, chunks: reiterable(chunks) }],
    actions: [],
    notes,
    diagnostics: findings.list,
  };
}

/** Converts one item, queuing its events or reporting why it was skipped. */
export function itemConverter(findings: Findings, ready: ImportedChunk[]) {
  return (text: string, where: string, offset: number, line?: number): void => {
    const item = convertItem(text);
    if (!item.ok) {
      findings.report(
        fileDiagnostic(
          'import.skipped-item',
          `${where} (byte ${offset}) is ${item.reason}, not an event; skipped.`,
          offset,
          line !== undefined ? { line } : {},
        ),
      );
      return;
    }
    for (const payload of item.payloads) ready.push({ bytes: payloadToSse(payload), receivedAt: 0 });
  };
}

const utf8 = new TextDecoder();

/** One NDJSON line's text, where it is (byte offset, 1-based line). */
export interface NdjsonLine {
  text: string;
  offset: number;
  line: number;
}

/**
 * The non-blank lines of an NDJSON file, read as it streams. A line over the size limit is
 * reported and skipped; a last line without its LF that is not JSON is reported as the file
 * cut off, and passed on as written.
 */
export async function* ndjsonLines(
  path: string,
  fs: SourceFs,
  findings: Findings,
  bodyOffset: number,
  itemName: string,
): AsyncGenerator<NdjsonLine> {
  const ready: NdjsonLine[] = [];
  const lines = createByteLineSplitter(
    {
      onLine(bytes, start, end, offset, line) {
        const text = utf8.decode(bytes.subarray(start, end));
        if (text.trim() !== '') ready.push({ text, offset, line });
      },
      onOversize(offset, line, length) {
        findings.report(
          fileDiagnostic(
            'import.skipped-item',
            `Line ${line} (byte ${offset}) is ${length} bytes long, over the limit for one ${itemName}; skipped.`,
            offset,
            { line },
          ),
        );
      },
    },
    { startOffset: bodyOffset },
  );
  for await (const block of readRange(fs, path, bodyOffset)) {
    lines.push(block);
    if (ready.length > 0) yield* ready.splice(0);
  }
  const tail = lines.end();
  if (tail) {
    const text = utf8.decode(tail.bytes);
    if (text.trim() !== '') {
      if (!parseJson(text).ok)
        findings.report(
          fileDiagnostic(
            'import.truncated',
            `The last line (line ${tail.line}, byte ${tail.offset}) is incomplete: the file was cut off. It is passed on as written.`,
            tail.offset,
            { line: tail.line },
          ),
        );
      yield { text, offset: tail.offset, line: tail.line };
    }
  }
}

async function* ndjsonChunks(
  path: string,
  fs: SourceFs,
  findings: Findings,
  bodyOffset: number,
  itemName: string,
): AsyncGenerator<ImportedChunk> {
  const ready: ImportedChunk[] = [];
  const convert = itemConverter(findings, ready);
  for await (const { text, offset, line } of ndjsonLines(path, fs, findings, bodyOffset, itemName)) {
    convert(text, `Line ${line}`, offset, line);
    yield* ready.splice(0);
  }
}

async function* arrayChunks(
  path: string,
  fs: SourceFs,
  findings: Findings,
  bodyOffset: number,
  itemName: string,
): AsyncGenerator<ImportedChunk> {
  const ready: ImportedChunk[] = [];
  const convert = itemConverter(findings, ready);
  const splitter = createJsonArraySplitter(
    {
      onElement: (element) => convert(element.text, `Array item ${element.index}`, element.byteStart),
      onDiagnostic: findings.report,
    },
    { itemName, startOffset: bodyOffset },
  );
  for await (const block of readRange(fs, path, bodyOffset)) {
    splitter.push(block);
    if (ready.length > 0) yield* ready.splice(0);
  }
  splitter.end();
  yield* ready.splice(0);
}
