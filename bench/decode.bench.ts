/**
 * The whole shared decoder (createSessionDecoder: framer, dialect, chunk statistics,
 * reconstruction) on ~30 MB streams of each wire format, in 64 KB network chunks. The floor
 * is the SSE framer alone on the same chunks, timed in alternation with the decoder.
 *
 * A stream is the upstream fixtures of one format (MANIFEST kind json, xml or raw) played
 * one after another until the size is reached: one long session with many runs. `[DONE]`
 * and the router's error frames are left out of the repeats, or every event after the first
 * `[DONE]` would be a `stream.after-done` finding.
 *
 * Reported: MB/s and envelopes/s against the budgets of the product (100 MB decoded within
 * 3 s; 10,000 envelopes/s live), time against the framer floor, N vs 4N bytes (linear ≈ 4),
 * and the heap the finished decoder keeps (blocks, agents, statistics) per MB of input and
 * per envelope. Heap figures need `global.gc`: `npm run bench` runs node with --expose-gc.
 */
import { createSessionDecoder, type SessionDecoder } from '../src-shared/pipeline/session-decoder';
import { classifyControlFrame } from '../src-shared/pipeline/stream-control';
import { createSseFramer } from '../src-shared/sse/framer';
import { splitEvery } from '../src-shared/sse/rechunk';
import { listSseFixtures, readFixture, readManifest } from '../src-main/testing/fixtures';
import type { BenchTable } from './run';
import { alternate } from './timing';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
const STREAM_BYTES = 30 * MB;
const FORMATS = ['json', 'xml', 'raw'] as const;
type Format = (typeof FORMATS)[number];

/** 100 MB within 3 s. */
const TARGET_MB_PER_S = 100 / 3;
const TARGET_ENVELOPES_PER_S = 10_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fixture's events without `[DONE]` and error frames (all fixtures: one `data:` line per event). */
function contentEvents(name: string): string {
  const events = decoder.decode(readFixture(name)).split(/(?<=\n\n)/);
  return events.filter((event) => !(event.startsWith('data: ') && classifyControlFrame(event.slice(6, -2)) !== undefined)).join('');
}

/** The fixtures of one format, repeated to about `bytes` bytes. */
export function fixtureStream(format: Format, bytes: number): Uint8Array {
  const manifest = readManifest();
  const names = listSseFixtures().filter((name) => manifest[name]?.kind === format);
  const once = encoder.encode(names.map(contentEvents).join(''));
  const repeats = Math.max(1, Math.round(bytes / once.length));
  const out = new Uint8Array(once.length * repeats);
  for (let i = 0; i < repeats; i++) out.set(once, i * once.length);
  return out;
}

interface Decoded {
  envelopes: number;
  diagnostics: number;
  blocks: number;
}

function decode(chunks: readonly Uint8Array[]): Decoded {
  let envelopes = 0;
  let diagnostics = 0;
  const session = createSessionDecoder({ onEnvelope: () => envelopes++, onDiagnostic: () => diagnostics++ });
  const leg = session.startLeg();
  for (let i = 0; i < chunks.length; i++) leg.push(chunks[i] as Uint8Array, i);
  leg.end();
  session.finish();
  return { envelopes, diagnostics, blocks: session.blocks().length };
}

function frameOnly(chunks: readonly Uint8Array[]): number {
  let frames = 0;
  const framer = createSseFramer({ onFrame: () => frames++, onDiagnostic: () => undefined });
  for (let i = 0; i < chunks.length; i++) framer.push(chunks[i] as Uint8Array, i);
  framer.end();
  return frames;
}

const mbps = (bytes: number, ms: number): number => bytes / MB / (ms / 1000);
const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');

function throughput(streams: ReadonlyMap<Format, Uint8Array>): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const [format, bytes] of streams) {
    const chunks = splitEvery(bytes, CHUNK);
    const result = decode(chunks);
    const { oursMs: aMs, floorMs: bMs, ratio } = alternate(() => decode(chunks), () => frameOnly(chunks), 5);
    const rate = mbps(bytes.length, aMs);
    const envelopesPerS = result.envelopes / (aMs / 1000);
    rows.push([format, (bytes.length / MB).toFixed(1), result.envelopes, result.blocks, result.diagnostics, aMs.toFixed(0), rate.toFixed(1), Math.round(envelopesPerS), mbps(bytes.length, bMs).toFixed(0), `${ratio.toFixed(1)}x`]);
    notes.push(
      `${format}: ${rate.toFixed(1)} MB/s (100 MB in ${(100 / rate).toFixed(1)} s; target 3 s: ${met(rate >= TARGET_MB_PER_S)}), ` +
        `${Math.round(envelopesPerS)} envelopes/s (target ${TARGET_ENVELOPES_PER_S}: ${met(envelopesPerS >= TARGET_ENVELOPES_PER_S)})`,
    );
  }
  return {
    title: 'Whole decoder on repeated upstream fixtures, 64 KB chunks (median of 5 rounds alternating with the framer)',
    columns: ['format', 'MB', 'envelopes', 'blocks', 'findings', 'decoder ms', 'MB/s', 'envelopes/s', 'framer MB/s', 'time decoder/framer'],
    rows,
    notes,
  };
}

function scaling(): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const format of FORMATS) {
    const small = splitEvery(fixtureStream(format, STREAM_BYTES / 4), CHUNK);
    const large = splitEvery(fixtureStream(format, STREAM_BYTES), CHUNK);
    const { oursMs: largeMs, floorMs: smallMs, ratio } = alternate(() => decode(large), () => decode(small), 3);
    rows.push([format, smallMs.toFixed(0), largeMs.toFixed(0), `${ratio.toFixed(2)}x`]);
    notes.push(`${format}: 4x the bytes took ${ratio.toFixed(2)}x the time (linear ≈ 4, quadratic ≈ 16: ${ratio < 6 ? 'linear' : 'NOT LINEAR'})`);
  }
  return { title: 'Scaling: N (7.5 MB) vs 4N (30 MB), median of 3 alternating rounds', columns: ['format', 'N ms', '4N ms', 'ratio'], rows, notes };
}

type Gc = () => void;

/** Heap in use once garbage is collected and swept (sweeping finishes in the background). */
async function settledHeap(gc: Gc): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Decodes in a frame of its own, so that only the returned session stays reachable. */
function decodeKeeping(chunks: readonly Uint8Array[]): { session: SessionDecoder; envelopes: number } {
  let envelopes = 0;
  const session = createSessionDecoder({ onEnvelope: () => envelopes++ });
  const leg = session.startLeg();
  for (let i = 0; i < chunks.length; i++) leg.push(chunks[i] as Uint8Array, i);
  leg.end();
  session.finish();
  return { session, envelopes };
}

/** Heap kept by a finished session decoder (its blocks, agents and statistics), the input aside. */
async function retained(streams: ReadonlyMap<Format, Uint8Array>): Promise<BenchTable> {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc) {
    return { title: 'Retained heap', columns: ['format'], rows: [], notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'] };
  }
  const rows: (string | number)[][] = [];
  for (const [format, bytes] of streams) {
    const chunks = splitEvery(bytes, CHUNK);
    decodeKeeping(chunks); // warm-up: compiled code and caches are not what a session keeps
    const before = await settledHeap(gc);
    const { session, envelopes } = decodeKeeping(chunks);
    const kept = (await settledHeap(gc)) - before;
    const blocks = session.blocks();
    const content = blocks.reduce((n, b) => n + b.content.length, 0);
    const parsed = blocks.reduce((n, b) => n + (b.parsed === undefined ? 0 : (JSON.stringify(b.parsed)?.length ?? 0)), 0);
    rows.push([format, (bytes.length / MB).toFixed(1), (kept / MB).toFixed(1), (kept / (bytes.length / MB) / MB).toFixed(2), Math.round(kept / envelopes), blocks.length, (content / MB).toFixed(1), (parsed / MB).toFixed(1)]);
  }
  return {
    title: 'Heap kept by the finished decoder (after GC, input buffer excluded)',
    columns: ['format', 'input MB', 'kept MB', 'MB kept per MB input', 'bytes per envelope', 'blocks', 'content M chars', 'parsed M chars (as JSON)'],
    rows,
    notes: [
      'What is kept is the result: block contents and the parsed JSON of JSON payloads (block.parsed; meta_init and meta_final with their',
      'message histories dominate), plus per-block bookkeeping. A string cut from two-byte text takes two bytes per character.',
    ],
  };
}

export async function run(): Promise<BenchTable[]> {
  const streams = new Map(FORMATS.map((format) => [format, fixtureStream(format, STREAM_BYTES)] as const));
  return [throughput(streams), scaling(), await retained(streams)];
}
