import { createChunkSequence } from '../../../src-shared/recording/chunk-sequence';
import { parseRecord } from '../../../src-shared/recording/format';
import { createByteLineSplitter } from '../../../src-shared/recording/lines';
import { createRecordingReader } from '../../../src-shared/recording/reader';
import { createRecordingIndexer, type LegIndex } from '../../../src-shared/recording/recording-index';
import { RECORDING_VERSION, type ChunkRecord } from '../../../src-shared/recording/types';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import { ImportError, type ImportedChunk, type ImportedLeg, type ImportedSource } from './types';

/**
 * A recording: one indexing pass (records validated, damage reported, no chunk bytes kept),
 * then each leg's chunks are streamed from the file range holding its chunk records.
 */
export async function openRecording(path: string, fs: SourceFs, findings: Findings): Promise<ImportedSource> {
  const indexer = createRecordingIndexer(findings.report);
  const reader = createRecordingReader({ onRecord: (record, offset, end) => indexer.add(record, offset, end), onDiagnostic: findings.report });
  let size = 0;
  for await (const block of readRange(fs, path, 0)) {
    size += block.length;
    reader.push(block);
  }
  reader.end();
  const header = reader.header;
  if (header && header.version > RECORDING_VERSION) {
    throw new ImportError('unsupported-version', path, `${path}: recording format version ${header.version} was written by a newer version of the inspector; this one reads version ${RECORDING_VERSION}.`);
  }
  const index = indexer.finish();
  const notes = [
    header
      ? `Recording made ${header.createdAt || 'at an unknown time'}${header.tool ? ` by ${header.tool}` : ''}; secrets ${header.redacted ? 'were redacted' : 'were NOT redacted (recorded with redaction off)'}.`
      : 'The recording header is damaged; records were read as format version 1.',
  ];
  return {
    kind: 'recording',
    path,
    size,
    header,
    legs: index.legs.map((entry) => recordedLeg(path, fs, entry)),
    actions: index.actions,
    notes,
    diagnostics: findings.list,
  };
}

function recordedLeg(path: string, fs: SourceFs, entry: LegIndex): ImportedLeg {
  return {
    index: entry.leg,
    ...(entry.request ? { request: entry.request } : {}),
    ...(entry.response ? { response: entry.response } : {}),
    ...(entry.startedAt !== undefined ? { startedAt: entry.startedAt } : {}),
    ...(entry.outcome ? { outcome: entry.outcome } : {}),
    chunkCount: entry.chunks,
    byteCount: entry.bytes,
    chunks: reiterable(() => legChunks(path, fs, entry)),
  };
}

const utf8 = new TextDecoder();

/**
 * The chunk record of `leg` on this line, if it is one. The indexing pass already validated
 * every line and reported damage; this one only picks its leg's chunks, and skips the rest.
 */
function chunkOfLeg(text: string, leg: number): ChunkRecord | null {
  const parsed = parseRecord(text);
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
  const lines = createByteLineSplitter(
    {
      onLine(bytes, start, end) {
        const record = chunkOfLeg(utf8.decode(bytes.subarray(start, end)), entry.leg);
        if (record && sequence.check(record).kind !== 'duplicate') ready.push({ bytes: new Uint8Array(Buffer.from(record.bytes, 'base64')), receivedAt: record.t });
      },
    },
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
}
