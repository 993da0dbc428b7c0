import { loadavg } from 'node:os';
import type { SessionSummary } from '../src-shared/contract/payloads';
import { startDemoAgent } from '../src-main/services/demo-agent/index';
import { createDefaultSessionService } from '../src-main/hosts/default-service';
import type { SessionService } from '../src-main/services/sessions/session-service';
import { createSessionStore } from '../src-main/services/sessions/store/session-store';
import { settledMemory, type Gc } from './decode.bench';
import type { BenchOptions, BenchTable } from './run';

/**
 * What a live session keeps per envelope: the session service (as the session worker runs it:
 * connection, spool files, decoder, store, batcher) connected to the demo agent's firehose
 * (docs/demo-agent.md) as fast as it decodes (`rate` at the maximum), its batches taken as
 * the host takes them; memory after a collection (heap + external + array buffers) before and
 * after the session, per envelope. The firehose's blocks are small (about 11 envelopes each),
 * so what is kept per block shows; the index (envelope and frame columns) is in the notes.
 */

const INDEX_TARGET = 24;

async function live(service: SessionService, url: string, seconds: number): Promise<SessionSummary> {
  const body = JSON.stringify({
    user_prompt: 'live-memory bench',
    scenario: 'firehose',
    rate: 1_000_000,
    duration: seconds,
  });
  const { id } = await service.connect({
    url: `${url}/agent/run`,
    method: 'POST',
    headers: [],
    body: { kind: 'json', text: body },
  });
  for (;;) {
    const { summary } = await service.getSession({ sessionId: id });
    if (summary.state !== 'connecting' && summary.state !== 'streaming') return summary;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The index a live session keeps per envelope (envelope and frame columns, spare room
 * included, as while it streams; then trimmed, as once it ended): the firehose's chunks as a
 * client received them, fed to a session store as a live leg does.
 */
async function liveIndex(url: string, seconds: number): Promise<(string | number)[]> {
  const body = JSON.stringify({
    user_prompt: 'live-memory bench',
    scenario: 'firehose',
    rate: 1_000_000,
    duration: seconds,
  });
  const response = await fetch(`${url}/agent/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const chunks: { bytes: Uint8Array; receivedAt: number }[] = [];
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) chunks.push({ bytes, receivedAt: Date.now() });
  const data = createSessionStore({
    id: 'bench',
    title: 'bench',
    source: { kind: 'live', method: 'POST', url },
    createdAt: 0,
  });
  const leg = data.openLeg('run', null, 0).index;
  chunks.forEach(({ bytes, receivedAt }, i) => {
    data.push(leg, bytes, receivedAt);
    if (i % 16 === 0) data.takeBatch(4096);
  });
  const perEnvelope = (): string => {
    const { envelopes, frames } = data.indexBytes();
    return ((envelopes + frames) / data.envelopeCount).toFixed(1);
  };
  const streaming = data.indexBytes();
  const row = [
    data.envelopeCount,
    data.legs[0]?.frames.count ?? 0,
    (streaming.envelopes / data.envelopeCount).toFixed(1),
    (streaming.frames / data.envelopeCount).toFixed(1),
    perEnvelope(),
  ];
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  row.push(perEnvelope());
  data.dispose();
  return row;
}

/**
 * What the larger session kept more than the smaller, per block more, beyond the index: the
 * fixed part of a session (caches, buffers) cancels out.
 */
function perBlock(kept: [number, number, number][], indexPerEnvelope: number): string {
  const [small, large] = kept;
  if (!small || !large || large[1] <= small[1]) return 'per block: needs two sessions of different sizes';
  const beyondIndex = large[2] - small[2] - indexPerEnvelope * (large[0] - small[0]);
  return `Per block beyond the index (${indexPerEnvelope} B per envelope), the larger session against the smaller: ${Math.round(beyondIndex / (large[1] - small[1]))} B.`;
}

export async function run(options: BenchOptions): Promise<BenchTable[]> {
  const gc = (globalThis as { gc?: Gc }).gc;
  const title = 'Memory a live session keeps (session service + demo agent firehose, in process)';
  if (!gc)
    return [
      {
        title,
        columns: ['envelopes'],
        rows: [],
        notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'],
      },
    ];
  const demo = await startDemoAgent();
  const service = createDefaultSessionService();
  // The host forwards every batch; here they are taken and dropped.
  const unsubscribe = service.onSessionBatch(() => undefined);
  try {
    await live(service, demo.url, 0.2); // warm-up
    const rows: (string | number)[][] = [];
    /** Per session: envelopes, blocks and bytes kept, for what the larger session kept per block more. */
    const kept: [number, number, number][] = [];
    const indexRows: (string | number)[][] = [];
    for (const seconds of options.quick ? [0.3, 1] : [1, 4]) indexRows.push(await liveIndex(demo.url, seconds));
    for (const seconds of options.quick ? [0.3, 1] : [1, 4]) {
      const load = loadavg()[0] ?? 0;
      const before = await settledMemory(gc);
      const started = performance.now();
      const summary = await live(service, demo.url, seconds);
      const ms = performance.now() - started;
      const bytes = (await settledMemory(gc)) - before;
      kept.push([summary.envelopes, summary.blocks ?? 0, bytes]);
      rows.push([
        summary.envelopes,
        summary.blocks ?? 0,
        `${summary.state}, ${summary.end?.label ?? '-'}`,
        Math.round((summary.envelopes * 1000) / ms),
        (bytes / 1e6).toFixed(1),
        Math.round(bytes / summary.envelopes),
        load.toFixed(1),
      ]);
    }
    return [
      {
        title,
        columns: [
          'envelopes',
          'blocks',
          'session',
          'envelopes/s decoded',
          'kept MB',
          'kept B/envelope',
          'load average',
        ],
        rows,
        notes: [
          `Each session stays open while the next runs, as in the app; kept is what the session added. Budget: the index (≤ ${INDEX_TARGET} B per envelope, below) plus bounded state; the rest is per block (the block with its envelope list) and per finding.`,
          perBlock(kept, Number(indexRows.at(-1)?.[4] ?? INDEX_TARGET)),
        ],
      },
      {
        title: 'The index of a live session (the firehose as a client received it, into a session store)',
        columns: [
          'envelopes',
          'frames',
          'envelope index B/envelope',
          'frame index B/envelope',
          'index B/envelope, streaming',
          'index B/envelope, ended',
        ],
        rows: indexRows,
        notes: indexRows.map(
          (r) =>
            `${r[0]} envelopes: ${r[4]} B per envelope while streaming (target <= ${INDEX_TARGET}: ${Number(r[4]) <= INDEX_TARGET ? 'met' : 'MISSED'})`,
        ),
      },
    ];
  } finally {
    unsubscribe();
    await service.dispose();
    await demo.close();
  }
}
