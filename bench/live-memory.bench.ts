import { loadavg } from 'node:os';
import type { SessionSummary } from '../src-shared/contract/payloads';
import { startDemoAgent } from '../src-main/services/demo-agent/index';
import { createDefaultSessionService } from '../src-main/services/sessions/default-service';
import type { SessionService } from '../src-main/services/sessions/session-service';
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
  const body = JSON.stringify({ user_prompt: 'live-memory bench', scenario: 'firehose', rate: 1_000_000, duration: seconds });
  const { id } = await service.connect({ url: `${url}/agent/run`, method: 'POST', headers: [], body: { kind: 'json', text: body } });
  for (;;) {
    const { summary } = await service.getSession({ sessionId: id });
    if (summary.state !== 'connecting' && summary.state !== 'streaming') return summary;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function run(options: BenchOptions): Promise<BenchTable[]> {
  const gc = (globalThis as { gc?: Gc }).gc;
  const title = 'Memory a live session keeps (session service + demo agent firehose, in process)';
  if (!gc) return [{ title, columns: ['envelopes'], rows: [], notes: ['skipped: global.gc is not exposed (run node with --expose-gc, as `npm run bench` does)'] }];
  const demo = await startDemoAgent();
  const service = createDefaultSessionService();
  // The host forwards every batch; here they are taken and dropped.
  const unsubscribe = service.onSessionBatch(() => undefined);
  try {
    await live(service, demo.url, 0.2); // warm-up
    const rows: (string | number)[][] = [];
    for (const seconds of options.quick ? [0.3, 1] : [1, 4]) {
      const load = loadavg()[0] ?? 0;
      const before = await settledMemory(gc);
      const started = performance.now();
      const summary = await live(service, demo.url, seconds);
      const ms = performance.now() - started;
      const kept = (await settledMemory(gc)) - before;
      rows.push([summary.envelopes, summary.blocks ?? 0, `${summary.state}, ${summary.end?.label ?? '-'}`, Math.round((summary.envelopes * 1000) / ms), (kept / 1e6).toFixed(1), Math.round(kept / summary.envelopes), load.toFixed(1)]);
    }
    return [
      {
        title,
        columns: ['envelopes', 'blocks', 'session', 'envelopes/s decoded', 'kept MB', 'kept B/envelope', 'load average'],
        rows,
        notes: [
          `Each session stays open while the next runs, as in the app; kept is what the session added. Budget: the index (≤ ${INDEX_TARGET} B per envelope) plus bounded state.`,
          'The envelope index is about 18 B per envelope and the frame index 29 B per frame, and the firehose is one frame per envelope (`npm run bench -- session-store` measures both for a decoded session): the rest is per block (the block with its envelope list) and per finding.',
        ],
      },
    ];
  } finally {
    unsubscribe();
    await service.dispose();
    await demo.close();
  }
}
