/**
 * The session store: what a decoded session keeps in memory (its raw bytes and envelope
 * texts live in spool files on disk, behind a compact index), and opening a large recording
 * through the session service in a process of its own (first rows, fully decoded, peak RSS).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkRecord, headerLine, recordLine } from '../src-shared/recording/format';
import { createSessionData, type SessionData } from '../src-main/services/sessions/session-data';
import { settledMemory, type Gc } from './decode.bench';
import type { BenchOptions, BenchTable } from './run';
import { clearStreamCache, generateStream, networkChunks, STREAM_FORMATS } from './streams';

const MB = 1024 * 1024;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const RETAINED_TARGET = 0.5;
const INDEX_TARGET = 24;
const FIRST_ROWS_TARGET_MS = 1000;
const INDEXED_TARGET_MS = 15_000;
const RSS_TARGET = 600 * MB;

/** Rows per batch, as the session service's batcher takes them. */
const BATCH_ROWS = 2000;

/**
 * A finished session of the stream, as the session service builds one (in a frame of its
 * own): its batches are taken as it decodes, as the batcher does, so that what is left is
 * what the session keeps, not what waits to be sent.
 */
function sessionKeeping(chunks: readonly Uint8Array[]): SessionData {
  const data = createSessionData({ id: 'bench', title: 'bench', source: { kind: 'file', path: '/bench', importer: 'sse' }, createdAt: 0 });
  const leg = data.openLeg('file', null, 0).index;
  for (let i = 0; i < chunks.length; i++) {
    data.push(leg, chunks[i] as Uint8Array, i);
    if (i % 64 === 0) data.takeBatch(BATCH_ROWS);
  }
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  while (data.takeBatch(BATCH_ROWS)) {
    // Drained.
  }
  return data;
}

async function retainedRow(gc: Gc, format: (typeof STREAM_FORMATS)[number], sizeMb: number): Promise<(string | number)[]> {
  const bytes = generateStream(format, sizeMb * MB);
  const chunks = networkChunks(bytes);
  clearStreamCache();
  sessionKeeping(chunks).dispose(); // warm-up
  const before = await settledMemory(gc);
  const data = sessionKeeping(chunks);
  const kept = (await settledMemory(gc)) - before;
  const index = data.indexBytes();
  const envelopes = data.envelopeCount;
  const frames = data.legs.reduce((n, leg) => n + leg.frames.count, 0);
  const row = [format, (bytes.length / MB).toFixed(1), (kept / MB).toFixed(1), (kept / bytes.length).toFixed(2), Math.round(kept / envelopes), (index.envelopes / envelopes).toFixed(1), (index.frames / Math.max(1, frames)).toFixed(1)];
  data.dispose();
  return row;
}

async function retained(sizeMb: number): Promise<BenchTable> {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc) return { title: 'Memory kept by a decoded session', columns: ['format'], rows: [], notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'] };
  const rows: (string | number)[][] = [];
  for (const format of STREAM_FORMATS) rows.push(await retainedRow(gc, format, sizeMb));
  const notes = rows.map((r) => `${r[0]}: ${r[3]} bytes kept per input byte (target <= ${RETAINED_TARGET}: ${Number(r[3]) <= RETAINED_TARGET ? 'met' : 'MISSED'}); envelope index ${r[5]} bytes per envelope (target <= ${INDEX_TARGET}: ${Number(r[5]) <= INDEX_TARGET ? 'met' : 'MISSED'})`);
  return {
    title: 'Memory kept by a decoded session (session store: heap + external + array buffers after GC, input excluded; raw bytes and deltas on disk)',
    columns: ['format', 'input MB', 'kept MB', 'bytes kept per input byte', 'bytes per envelope', 'envelope index B/envelope', 'frame index B/frame'],
    rows,
    notes,
  };
}

/**
 * Writes a recording of one leg whose stream is `bytes` long: the generator's json stream,
 * repeated, in network-sized chunks, without ever holding the whole stream in memory.
 */
function writeRecording(path: string, bytes: number): number {
  const part = generateStream('json', 32 * MB);
  const chunks = networkChunks(part);
  clearStreamCache();
  const fd = openSync(path, 'w');
  const write = (text: string): void => void writeSync(fd, text);
  write(headerLine({ createdAt: new Date(0).toISOString(), t: 0, redacted: true, tool: 'bench' }));
  write(recordLine({ type: 'leg', leg: 0, t: 0, request: { method: 'POST', url: 'http://127.0.0.1/bench', headers: [], body: null } }));
  write(recordLine({ type: 'response', leg: 0, t: 0, status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }));
  let offset = 0;
  let seq = 0;
  while (offset < bytes) {
    for (const chunk of chunks) {
      if (offset >= bytes) break;
      write(recordLine(chunkRecord(0, seq, chunk, seq, offset)));
      offset += chunk.length;
      seq += 1;
    }
  }
  write(recordLine({ type: 'end', leg: 0, t: seq, reason: 'done' }));
  closeSync(fd);
  return offset;
}

interface ProbeResult {
  firstRowsMs: number;
  indexedMs: number;
  peakRss: number;
  envelopes: number;
  bytes: number;
  state: string;
}

function openLarge(sizeMb: number): BenchTable {
  const dir = mkdtempSync(join(tmpdir(), 'stream-inspector-bench-'));
  try {
    const path = join(dir, 'large.recording');
    const streamBytes = writeRecording(path, sizeMb * MB);
    const out = execFileSync(process.execPath, [join(ROOT, 'bin/run-ts.mjs'), join(ROOT, 'bench/open-recording-probe.ts'), path], { encoding: 'utf8', maxBuffer: 16 * MB });
    const result = JSON.parse(out.trim().split('\n').at(-1) as string) as ProbeResult;
    const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
    return {
      title: `Opening a recording of a ${(streamBytes / MB).toFixed(0)} MB stream through the session service (a process of its own)`,
      columns: ['stream MB', 'envelopes', 'first rows ms', 'fully decoded ms', 'peak RSS MB', 'state'],
      rows: [[(streamBytes / MB).toFixed(0), result.envelopes, Math.round(result.firstRowsMs), Math.round(result.indexedMs), Math.round(result.peakRss / MB), result.state]],
      notes: [
        `first rows ${Math.round(result.firstRowsMs)} ms (target <= ${FIRST_ROWS_TARGET_MS} ms at 1 GB: ${met(result.firstRowsMs <= FIRST_ROWS_TARGET_MS)})`,
        `fully decoded ${(result.indexedMs / 1000).toFixed(1)} s (target <= ${INDEXED_TARGET_MS / 1000} s at 1 GB: ${met(result.indexedMs <= INDEXED_TARGET_MS)})`,
        `peak RSS ${Math.round(result.peakRss / MB)} MB (target <= ${RSS_TARGET / MB} MB at 1 GB: ${met(result.peakRss <= RSS_TARGET)})`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run({ quick }: BenchOptions): Promise<BenchTable[]> {
  return quick ? [await retained(4), openLarge(64)] : [await retained(100), openLarge(1024)];
}
