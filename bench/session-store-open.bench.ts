/**
 * Opening a large recording through the session service, in a process of its own: when the
 * first rows are batched, when the whole file is decoded, peak RSS; against the floor for
 * opening a file (reading it and building a Uint32Array of its record offsets) and against
 * decoding the same stream from memory into a session (what the open costs beyond decoding).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkRecord, headerLine, recordLine } from '../src-shared/recording/format';
import type { BenchOptions, BenchTable } from './run';
import { clearStreamCache, generateStream, networkChunks } from './streams';

const MB = 1024 * 1024;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const FIRST_ROWS_TARGET_MS = 1000;
const INDEXED_TARGET_MS = 15_000;
const RSS_TARGET = 600 * MB;

/** What a benchmark recording's stream repeats: the generator's json stream, 32 MB of it, in network-sized chunks. */
export function streamPart(): Uint8Array[] {
  const chunks = networkChunks(generateStream('json', 32 * MB));
  clearStreamCache();
  return chunks;
}

/** The stream a benchmark recording holds: `part` repeated, `bytes` long, without ever holding the whole stream in memory. */
export function* recordedStream(bytes: number, part = streamPart()): Generator<Uint8Array> {
  const chunks = part;
  for (let offset = 0; offset < bytes;) {
    for (const chunk of chunks) {
      if (offset >= bytes) return;
      yield chunk;
      offset += chunk.length;
    }
  }
}

/** Writes a recording of one leg whose stream is `recordedStream(bytes)`; returns the stream's length. */
function writeRecording(path: string, bytes: number): number {
  const fd = openSync(path, 'w');
  const write = (text: string): void => void writeSync(fd, text);
  write(headerLine({ createdAt: new Date(0).toISOString(), t: 0, redacted: true, tool: 'bench' }));
  write(
    recordLine({
      type: 'leg',
      leg: 0,
      t: 0,
      request: { method: 'POST', url: 'http://127.0.0.1/bench', headers: [], body: null },
    }),
  );
  write(
    recordLine({
      type: 'response',
      leg: 0,
      t: 0,
      status: 200,
      statusText: 'OK',
      headers: [['content-type', 'text/event-stream']],
    }),
  );
  let offset = 0;
  let seq = 0;
  for (const chunk of recordedStream(bytes)) {
    write(recordLine(chunkRecord(0, seq, chunk, seq, offset)));
    offset += chunk.length;
    seq += 1;
  }
  write(recordLine({ type: 'end', leg: 0, t: seq, reason: 'done' }));
  closeSync(fd);
  return offset;
}

/** What `open-recording-probe.ts` prints. */
export interface ProbeResult {
  firstRowsMs: number;
  indexedMs: number;
  /** CPU time (user + system) of the process while it opened the file. */
  cpuMs: number;
  /** The chunk statistics asked for once the file was decoded (the Diagnostics view's charts). */
  statsMs: number;
  peakRss: number;
  envelopes: number;
  bytes: number;
  state: string;
  /** The floor, timed in the same process after the open: reading the file, a Uint32Array of its record offsets. */
  floorMs: number;
  floorCpuMs: number;
}

/**
 * What the probe prints with `--decode`: the same stream's chunks decoded from memory, by the
 * decoder alone (a counting sink, as `record` runs it) and into a session (decoder and session
 * store, raw bytes to a spool file), CPU time each.
 */
export interface DecodeResult {
  decoderCpuMs: number;
  sessionCpuMs: number;
  envelopes: number;
}

function probe<T>(args: string[]): T {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', join(ROOT, 'bin/run-ts.mjs'), join(ROOT, 'bench/open-recording-probe.ts'), ...args],
    { encoding: 'utf8', maxBuffer: 16 * MB },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as T;
}

function openLarge(sizeMb: number): BenchTable {
  const dir = mkdtempSync(join(tmpdir(), 'stream-inspector-bench-'));
  try {
    const path = join(dir, 'large.recording');
    const streamBytes = writeRecording(path, sizeMb * MB);
    const open = probe<ProbeResult>([path]);
    const decode = probe<DecodeResult>(['--decode', String(streamBytes)]);
    const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
    const s = (ms: number): string => (ms / 1000).toFixed(1);
    return {
      title: `Opening a recording of a ${(streamBytes / MB).toFixed(0)} MB stream through the session service (a process of its own)`,
      columns: [
        'stream MB',
        'envelopes',
        'first rows ms',
        'fully decoded s',
        'CPU s',
        'peak RSS MB',
        'statistics when asked s',
        'floor s (CPU s)',
        'of floor (by CPU)',
        'decoder alone CPU s',
        'decoder + store CPU s',
        'state',
      ],
      rows: [
        [
          (streamBytes / MB).toFixed(0),
          open.envelopes,
          Math.round(open.firstRowsMs),
          s(open.indexedMs),
          s(open.cpuMs),
          Math.round(open.peakRss / MB),
          s(open.statsMs),
          `${s(open.floorMs)} (${s(open.floorCpuMs)})`,
          `${(open.floorMs / open.indexedMs).toFixed(3)} (${(open.floorCpuMs / open.cpuMs).toFixed(3)})`,
          s(decode.decoderCpuMs),
          s(decode.sessionCpuMs),
          open.state,
        ],
      ],
      notes: [
        `first rows ${Math.round(open.firstRowsMs)} ms (target <= ${FIRST_ROWS_TARGET_MS} ms at 1 GB: ${met(open.firstRowsMs <= FIRST_ROWS_TARGET_MS)})`,
        `fully decoded ${s(open.indexedMs)} s (target <= ${INDEXED_TARGET_MS / 1000} s at 1 GB: ${met(open.indexedMs <= INDEXED_TARGET_MS)})`,
        `peak RSS ${Math.round(open.peakRss / MB)} MB (target <= ${RSS_TARGET / MB} MB at 1 GB: ${met(open.peakRss <= RSS_TARGET)})`,
        `floor: reading the ${(open.bytes / MB).toFixed(0)} MB of stream's recording file and building a Uint32Array of its record offsets`,
        `the same stream's chunks from memory (no file): the decoder alone (a counting sink) takes ${((100 * decode.decoderCpuMs) / open.cpuMs).toFixed(0)} % of the open's CPU time, decoder and session store (raw bytes to a spool file) ${((100 * decode.sessionCpuMs) / open.cpuMs).toFixed(0)} %${decode.envelopes === open.envelopes ? '' : ` (${decode.envelopes} envelopes against ${open.envelopes}: NOT the same stream)`}`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function run({ quick }: BenchOptions): BenchTable[] {
  return [openLarge(quick ? 64 : 1024)];
}
