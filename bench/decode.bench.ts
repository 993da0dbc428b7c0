/**
 * The whole shared decoder as the app and the CLI run it (createSessionDecoder: framer,
 * dialect, reconstruction, in-text stage, diagnostics; chunk statistics are not counted while
 * decoding, but from the session store when a view asks: session-statistics.ts) against
 * floors measured in the same process on the same network-like chunks (bench/floors.ts): line
 * splitting + UTF-8 decoding + JSON.parse of each data line, and eventsource-parser +
 * JSON.parse beside it. Streams are seeded and realistic (bench/streams.ts): `mixed` (tool
 * payloads up to 200 KB) and `deltas` (nearly all small deltas), in every wire format, cut
 * into 1 B–16 KB chunks.
 *
 * Reported: throughput as a fraction of the floor (floor time / decoder time; targets json
 * deltas >= 1.0, json mixed and raw >= 0.8, xml >= 0.6), time per MB at the large size
 * against the small one (linear: within 1.2x), and the heap the finished decoder keeps per
 * input byte and per envelope.
 * Heap figures need `global.gc`: `npm run bench` runs node with --expose-gc.
 */
import {
  createSessionDecoder,
  type SessionDecoder,
  type SessionDecoderOptions,
} from '../src-shared/pipeline/session-decoder';
import { eventsourceParserFloor, linesFloor } from './floors';
import type { BenchOptions, BenchTable } from './run';
import { clearStreamCache, generateStream, networkChunks, STREAM_FORMATS, type StreamProfile } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;
const PROFILES: readonly StreamProfile[] = ['deltas', 'mixed'];
/**
 * Fraction of the floor the decoder must reach, per format and profile: delta-heavy json is
 * what the shape readers exist for (src-shared/json/shapes.ts), so at least the floor there.
 */
const TARGET_OF_FLOOR: Record<(typeof STREAM_FORMATS)[number], Record<StreamProfile, number>> = {
  json: { deltas: 1.0, mixed: 0.8 },
  raw: { deltas: 0.8, mixed: 0.8 },
  xml: { deltas: 0.6, mixed: 0.6 },
};
const LINEAR_TARGET = 1.2;
/** The decoder's options in the app's session store and the CLI: no statistics while decoding. */
export const AS_THE_APP_DECODES: SessionDecoderOptions = { statistics: false };
/** Decodes of each stream before the timed rounds (`alternate` makes the last of them), at the least. */
const DECODER_WARM_UPS = 3;
/**
 * And at least this much decoded in them: the decoder reaches its steady pace after about 28 MB
 * of a stream (its optimising compiles, which run on V8's threads and count in `--cpu`, are
 * done by then). Three decodes of 4 MB measured json deltas at 0.54 of the floor, the rounds
 * after them at 0.72–0.78 (docs/performance.md, "Stop 43").
 */
const WARM_UP_BYTES = 32 * MB;

interface Decoded {
  envelopes: number;
  diagnostics: number;
  blocks: number;
}

function decode(chunks: readonly Uint8Array[]): Decoded {
  let envelopes = 0;
  let diagnostics = 0;
  const session = createSessionDecoder(
    { onEnvelope: () => envelopes++, onDiagnostic: () => diagnostics++ },
    AS_THE_APP_DECODES,
  );
  const leg = session.startLeg();
  for (let i = 0; i < chunks.length; i++) leg.push(chunks[i] as Uint8Array, i);
  leg.end();
  session.finish();
  return { envelopes, diagnostics, blocks: session.blocks().length };
}

const mbps = (bytes: number, ms: number): number => bytes / MB / (ms / 1000);
const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');

function againstFloors(sizeMb: number, rounds: number): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const format of STREAM_FORMATS) {
    for (const profile of PROFILES) {
      const bytes = generateStream(format, sizeMb * MB, profile);
      const chunks = networkChunks(bytes);
      // The decoder's code settles only after a few decodes (tiering up, then the deopts a new
      // session's objects cause once): warm up past that, as a long session is past it.
      for (let i = 1; i < Math.max(DECODER_WARM_UPS, Math.ceil(WARM_UP_BYTES / bytes.length)); i++) {
        decode(chunks);
        linesFloor(chunks);
      }
      const ours = alternate(
        () => decode(chunks),
        () => linesFloor(chunks),
        rounds,
      );
      const esp = alternate(
        () => eventsourceParserFloor(chunks),
        () => linesFloor(chunks),
        rounds,
      );
      const ofFloor = 1 / ours.ratio;
      const target = TARGET_OF_FLOOR[format][profile];
      rows.push([
        format,
        profile,
        (bytes.length / MB).toFixed(1),
        ours.ours.envelopes,
        mbps(bytes.length, ours.oursMs).toFixed(1),
        `${mbps(bytes.length, ours.oursMaxMs).toFixed(1)}–${mbps(bytes.length, ours.oursMinMs).toFixed(1)}`,
        mbps(bytes.length, ours.floorMs).toFixed(1),
        mbps(bytes.length, esp.oursMs).toFixed(1),
        ofFloor.toFixed(2),
      ]);
      notes.push(
        `${format}/${profile}: ${ofFloor.toFixed(2)} of the floor (target >= ${target}: ${met(ofFloor >= target)})`,
      );
    }
  }
  return {
    title: `Whole decoder against the floor, ${sizeMb} MB streams in 1 B–16 KB chunks (medians of ${rounds} alternating rounds after warm-ups of ${WARM_UP_BYTES / MB} MB, ${DECODER_WARM_UPS} decodes at the least)`,
    columns: [
      'format',
      'profile',
      'MB',
      'envelopes',
      'decoder MB/s',
      'min–max',
      'floor MB/s',
      'eventsource-parser+JSON.parse MB/s',
      'of floor',
    ],
    rows,
    notes: [
      ...notes,
      'floor: line splitting + UTF-8 decoding + JSON.parse of each JSON data line (for XML items: splitting and decoding alone).',
    ],
  };
}

function linearity(smallMb: number, largeMb: number, rounds: number): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const format of STREAM_FORMATS) {
    // The large stream is the small one played again and again: the same mix of events at
    // both sizes, so the ratio shows what size alone costs. (Distinct runs differ: raw's first
    // megabyte held 3,233 envelopes per MB against 3,900 further on, a cheaper mix that read
    // as 1.2-1.3x of growth.)
    const smallStream = generateStream(format, smallMb * MB);
    const small = networkChunks(smallStream);
    const large = networkChunks(repeatStream(smallStream, largeMb * MB));
    const smallBytes = small.reduce((n, c) => n + c.length, 0);
    const largeBytes = large.reduce((n, c) => n + c.length, 0);
    const r = alternate(
      () => decode(large),
      () => decode(small),
      rounds,
    );
    const perMbSmall = r.floorMs / (smallBytes / MB);
    const perMbLarge = r.oursMs / (largeBytes / MB);
    const ratio = perMbLarge / perMbSmall;
    rows.push([format, perMbSmall.toFixed(1), perMbLarge.toFixed(1), `${ratio.toFixed(2)}x`]);
    notes.push(
      `${format}: time per MB at ${largeMb} MB is ${ratio.toFixed(2)}x that at ${smallMb} MB (target <= ${LINEAR_TARGET}x: ${met(ratio <= LINEAR_TARGET)})`,
    );
  }
  return {
    title: `Linear: time per MB at ${smallMb} MB and at ${largeMb} MB (medians of ${rounds} alternating rounds)`,
    columns: ['format', `ms/MB at ${smallMb} MB`, `ms/MB at ${largeMb} MB`, 'ratio'],
    rows,
    notes,
  };
}

/** `stream` one copy after another, to at least `bytes` bytes (whole copies: every run in it ends). */
function repeatStream(stream: Uint8Array, bytes: number): Uint8Array {
  const copies = Math.ceil(bytes / stream.length);
  const out = new Uint8Array(copies * stream.length);
  for (let i = 0; i < copies; i++) out.set(stream, i * stream.length);
  return out;
}

export type Gc = () => void;

/**
 * Heap and buffers in use once garbage is collected and swept: collections repeat until two
 * readings agree within 1 %, since sweeping finishes in the background.
 */
export async function settledMemory(gc: Gc): Promise<number> {
  const reading = (): number => {
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    // arrayBuffers is part of external; count it once.
    return heapUsed + Math.max(external, arrayBuffers);
  };
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = reading();
    if (Math.abs(now - last) < last * 0.01) return now;
    last = now;
  }
  return last;
}

/** Decodes in a frame of its own, so that only the returned session stays reachable (the provider bench decodes with it too). */
export function decodeKeeping(chunks: readonly Uint8Array[]): { session: SessionDecoder; envelopes: number } {
  let envelopes = 0;
  const session = createSessionDecoder({ onEnvelope: () => envelopes++ }, AS_THE_APP_DECODES);
  const leg = session.startLeg();
  for (let i = 0; i < chunks.length; i++) leg.push(chunks[i] as Uint8Array, i);
  leg.end();
  session.finish();
  return { session, envelopes };
}

/**
 * Memory kept by a finished session decoder for one format. A function of its own, so that
 * nothing of the previous format's measurement stays reachable from this one's frame.
 */
async function retainedRow(
  gc: Gc,
  format: (typeof STREAM_FORMATS)[number],
  sizeMb: number,
): Promise<(string | number)[]> {
  const bytes = generateStream(format, sizeMb * MB);
  const chunks = networkChunks(bytes);
  // Only this format's input stays reachable while memory is measured.
  clearStreamCache();
  decodeKeeping(chunks); // warm-up: compiled code and caches are not what a session keeps
  const before = await settledMemory(gc);
  const { session, envelopes } = decodeKeeping(chunks);
  const kept = (await settledMemory(gc)) - before;
  return [
    format,
    (bytes.length / MB).toFixed(1),
    (kept / MB).toFixed(1),
    (kept / bytes.length).toFixed(2),
    Math.round(kept / envelopes),
    session.blocks().length,
  ];
}

/** Memory kept by a finished session decoder (its blocks, agents and statistics), the input aside. */
async function retained(sizeMb: number): Promise<BenchTable> {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc) {
    return {
      title: 'Retained memory',
      columns: ['format'],
      rows: [],
      notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'],
    };
  }
  const rows: (string | number)[][] = [];
  for (const format of STREAM_FORMATS) rows.push(await retainedRow(gc, format, sizeMb));
  return {
    title: 'Memory kept by the finished decoder (heap + external + array buffers after GC, input excluded)',
    columns: ['format', 'input MB', 'kept MB', 'bytes kept per input byte', 'bytes per envelope', 'blocks'],
    rows,
    notes: [
      'What is kept is the result: block contents, parsed JSON payloads (meta_init/meta_final histories) and per-block bookkeeping.',
    ],
  };
}

export async function run({ quick }: BenchOptions): Promise<BenchTable[]> {
  return quick
    ? [againstFloors(4, 3), linearity(1, 8, 3), await retained(4)]
    : [againstFloors(32, 5), linearity(1, 100, 3), await retained(100)];
}
