import { decidedByFirstBytes, framingOfHead } from '../../../src-shared/pipeline/leg-framing';
import { createChunkSequence } from '../../../src-shared/recording/chunk-sequence';
import { parseChunkLine } from '../../../src-shared/recording/chunk-line';
import { base64ByteLength, parseHeader, parseRecord } from '../../../src-shared/recording/format';
import { createByteLineSplitter } from '../../../src-shared/recording/lines';
import { createRecordingReader } from '../../../src-shared/recording/reader';
import { createRecordingIndexer, type LegIndex } from '../../../src-shared/recording/recording-index';
import { RECORDING_VERSION, type ChunkRecord, type RecordingHeader } from '../../../src-shared/recording/types';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import { ImportError, type ImportedChunk, type ImportedLeg, type ImportedSource, type RecordListener } from './types';

/**
 * A recording: one pass over its records (validated, damage reported, no chunk bytes kept)
 * builds its index; then each leg's chunks are streamed from the file range holding its chunk
 * records. Opened to be streamed (`stream`), the pass is left to the caller, which sees every
 * record as it is read.
 */
export async function openRecording(
  path: string,
  fs: SourceFs,
  findings: Findings,
  stream = false,
): Promise<ImportedSource> {
  const { header, size } = await readHeader(path, fs);
  if (header && header.version > RECORDING_VERSION) {
    throw new ImportError(
      'unsupported-version',
      path,
      `${path}: recording format version ${header.version} was written by a newer version of the inspector; this one reads version ${RECORDING_VERSION}.`,
    );
  }
  const source: ImportedSource = {
    kind: 'recording',
    path,
    size,
    header,
    ...(header?.decodeAs !== undefined ? { decodeAs: header.decodeAs } : {}),
    legs: [],
    actions: [],
    notes: [
      header
        ? `Recording made ${header.createdAt || 'at an unknown time'}${header.tool ? ` by ${header.tool}` : ''}; secrets ${header.redacted ? 'were redacted' : 'were NOT redacted (recorded with redaction off)'}.`
        : 'The recording header is damaged; records were read as format version 1.',
    ],
    diagnostics: findings.list,
  };
  const readRecords = async (onRecord?: RecordListener, stopped?: () => boolean): Promise<void> => {
    const indexer = createRecordingIndexer(findings.report);
    const reader = createRecordingReader({
      onRecord(record, offset, end) {
        if (indexer.add(record, offset, end)) onRecord?.(record, { start: offset, end });
      },
      onDiagnostic: findings.report,
    });
    let read = 0;
    for await (const block of readRange(fs, path, 0)) {
      if (stopped?.()) return;
      read += block.length;
      reader.push(block);
    }
    reader.end();
    const index = indexer.finish();
    source.size = read;
    source.legs = await Promise.all(
      index.legs.map(async (entry) => recordedLeg(path, fs, entry, await startsAsArray(path, fs, entry))),
    );
    source.actions = index.actions;
  };
  if (stream) source.readRecords = readRecords;
  else await readRecords();
  return source;
}

/** The header line (null when it is damaged: the pass reports how) and the file's size. */
async function readHeader(path: string, fs: SourceFs): Promise<{ header: RecordingHeader | null; size: number }> {
  const file = await fs.open(path);
  try {
    let first: Uint8Array | null = null;
    const lines = createByteLineSplitter({ onLine: (bytes, start, end) => (first ??= bytes.slice(start, end)) });
    for (let position = 0; first === null && position < file.size;) {
      const block = await file.read(position, Math.min(HEADER_READ, file.size - position));
      if (block.length === 0) break;
      position += block.length;
      lines.push(block);
    }
    const line = first ?? lines.end()?.bytes ?? new Uint8Array(0);
    const parsed = parseHeader(utf8.decode(line));
    return { header: parsed.ok ? parsed.value : null, size: file.size };
  } finally {
    await file.close();
  }
}

const HEADER_READ = 64 * 1024;

/**
 * Whether a leg whose response record does not say if it was a stream (a recording written
 * before it did) has a JSON body that starts as an array, where its head leaves that to the
 * body (`decidedByFirstBytes`). Its first chunk decides, as when the recording is decoded
 * while it is read (file-load.ts), which must decide before it decodes that chunk.
 */
async function startsAsArray(path: string, fs: SourceFs, entry: LegIndex): Promise<boolean> {
  if (entry.stream !== undefined || !entry.response || !decidedByFirstBytes(entry.response)) return false;
  for await (const chunk of legChunks(path, fs, entry)) return framingOfHead(chunk.bytes) === 'json-array';
  return false;
}

function recordedLeg(path: string, fs: SourceFs, entry: LegIndex, arrayBody: boolean): ImportedLeg {
  return {
    index: entry.leg,
    ...(entry.request ? { request: entry.request } : {}),
    ...(entry.response ? { response: entry.response } : {}),
    ...(entry.stream !== undefined ? { stream: entry.stream } : arrayBody ? { stream: true } : {}),
    ...(entry.startedAt !== undefined ? { startedAt: entry.startedAt } : {}),
    ...(entry.outcome ? { outcome: entry.outcome } : {}),
    chunkCount: entry.chunks,
    byteCount: entry.bytes,
    chunks: reiterable(() => legChunks(path, fs, entry)),
  };
}

const utf8 = new TextDecoder();
const LF = 0x0a;
const CR = 0x0d;

/**
 * A chunk record's bytes (its base64 was validated when the record was parsed), in a buffer of
 * their own: a consumer may keep them, and a slice of Node's shared pool would keep the pool.
 */
export function chunkBytes(record: ChunkRecord): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(base64ByteLength(record.bytes));
  bytes.write(record.bytes, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The chunk record of `leg` on this line, if it is one: read in the recorder's own layout
 * (chunk-line.ts), any other line parsed whole. Damage was reported when the file was
 * indexed; a reader of one leg's chunks skips the other lines. The line may end with its line
 * ending (a record's range read back from the file does): the layout is read without it.
 */
export function chunkOfLeg(line: Uint8Array, leg: number): ChunkRecord | null {
  let end = line.length;
  if (line[end - 1] === LF) end--;
  if (line[end - 1] === CR) end--;
  const chunk = parseChunkLine(line, 0, end);
  if (chunk) return chunk.leg === leg ? chunk : null;
  const parsed = parseRecord(utf8.decode(line));
  return parsed.kind === 'record' && parsed.record.type === 'chunk' && parsed.record.leg === leg ? parsed.record : null;
}

/**
 * Re-reads the leg's chunk range; damage and duplicated chunks there were reported by the
 * indexing pass, so they are skipped silently.
 */
async function* legChunks(path: string, fs: SourceFs, entry: LegIndex): AsyncGenerator<ImportedChunk> {
  if (entry.chunks === 0) return;
  const sequence = createChunkSequence();
  let ready: ImportedChunk[] = [];
  const take = (line: Uint8Array, start: number, end: number): void => {
    const record = chunkOfLeg(line, entry.leg);
    if (record && sequence.check(record).kind !== 'duplicate')
      ready.push({ bytes: chunkBytes(record), receivedAt: record.t, record: { start, end } });
  };
  const lines = createByteLineSplitter(
    { onLine: (bytes, start, end, offset, _line, next) => take(bytes.subarray(start, end), offset, next) },
    { startOffset: entry.chunkStart },
  );
  for await (const block of readRange(fs, path, entry.chunkStart, entry.chunkEnd)) {
    lines.push(block);
    if (ready.length > 0) {
      const batch = ready;
      ready = [];
      yield* batch;
    }
  }
  // The file's last record, when it lost only its line ending.
  const tail = lines.end();
  if (tail) take(tail.bytes, tail.offset, tail.offset + tail.bytes.length);
  yield* ready;
}
