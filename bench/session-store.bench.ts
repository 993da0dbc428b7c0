/**
 * The session store: what a decoded session keeps in memory (its raw bytes and envelope
 * texts live on disk, behind a compact index). Opening a large recording is
 * `session-store-open.bench.ts` (`npm run bench -- session-store` runs both).
 */
import { createSessionStore, type SessionStore } from '../src-main/services/sessions/store/session-store';
import { settledMemory, type Gc } from './decode.bench';
import type { BenchOptions, BenchTable } from './run';
import { clearStreamCache, generateStream, networkChunks, STREAM_FORMATS } from './streams';

const MB = 1024 * 1024;

const RETAINED_TARGET = 0.5;
const INDEX_TARGET = 24;

/** Rows per batch, as the session service's batcher takes them. */
export const BATCH_ROWS = 2000;

/**
 * A finished session of the stream, as the session service builds one (in a frame of its
 * own): its batches are taken as it decodes, as the batcher does, so that what is left is
 * what the session keeps, not what waits to be sent.
 */
export function sessionKeeping(chunks: Iterable<Uint8Array>): SessionStore {
  const data = createSessionStore({
    id: 'bench',
    title: 'bench',
    source: { kind: 'file', path: '/bench', importer: 'sse' },
    createdAt: 0,
  });
  const leg = data.openLeg('file', null, 0).index;
  let i = 0;
  for (const chunk of chunks) {
    data.push(leg, chunk, i);
    if (i++ % 64 === 0) data.takeBatch(BATCH_ROWS);
  }
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  while (data.takeBatch(BATCH_ROWS)) {
    // Drained.
  }
  return data;
}

async function retainedRow(
  gc: Gc,
  format: (typeof STREAM_FORMATS)[number],
  sizeMb: number,
): Promise<(string | number)[]> {
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
  const row = [
    format,
    (bytes.length / MB).toFixed(1),
    (kept / MB).toFixed(1),
    (kept / bytes.length).toFixed(2),
    Math.round(kept / envelopes),
    (index.envelopes / envelopes).toFixed(1),
    (index.frames / Math.max(1, frames)).toFixed(1),
  ];
  data.dispose();
  return row;
}

async function retained(sizeMb: number): Promise<BenchTable> {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc)
    return {
      title: 'Memory kept by a decoded session',
      columns: ['format'],
      rows: [],
      notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'],
    };
  const rows: (string | number)[][] = [];
  for (const format of STREAM_FORMATS) rows.push(await retainedRow(gc, format, sizeMb));
  const notes = rows.map(
    (r) =>
      `${r[0]}: ${r[3]} bytes kept per input byte (target <= ${RETAINED_TARGET}: ${Number(r[3]) <= RETAINED_TARGET ? 'met' : 'MISSED'}); envelope index ${r[5]} bytes per envelope (target <= ${INDEX_TARGET}: ${Number(r[5]) <= INDEX_TARGET ? 'met' : 'MISSED'})`,
  );
  return {
    title:
      'Memory kept by a decoded session (session store: heap + external + array buffers after GC, input excluded; raw bytes and deltas on disk)',
    columns: [
      'format',
      'input MB',
      'kept MB',
      'bytes kept per input byte',
      'bytes per envelope',
      'envelope index B/envelope',
      'frame index B/frame',
    ],
    rows,
    notes,
  };
}

export async function run({ quick }: BenchOptions): Promise<BenchTable[]> {
  return [await retained(quick ? 4 : 100)];
}
