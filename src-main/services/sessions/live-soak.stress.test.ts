import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultSessionService } from '../../hosts/default-service';
import { retainedHeap } from '../../testing/memory';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import type { SessionService } from './session-service';

/**
 * The memory soak of a live session (docs/reliability.md, "Memory that does not grow with the
 * stream"): the session service as both hosts run it (connection, spool files, decoder, store,
 * batcher, its batches taken as a host takes them) connected over loopback HTTP to the demo
 * agent's endless firehose, small complete blocks of three interleaved agents (about 15
 * envelopes each), for LIVE_SOAK_SECONDS (default 60; the figures are printed when it is set).
 * What the second half of the run retains after full collections may grow by the index (24 B
 * per envelope, and the fifth its columns grow by at once) and PER_BLOCK_BYTES per block.
 *
 * Measured on the loaded 2-core machine (docs/reliability.md): before the block store kept a
 * finished block's envelope list as a range, about 750–800 B per block beyond 24 B per
 * envelope (30 s: 328,026 envelopes and 21,535 blocks in the second half, retained +24.0 MB
 * at the peak against this bound's 20.0 MB); now 140–360 B (60 s: 156,205 envelopes and
 * 10,245 blocks, +5.2 MB; 405,629 and 26,618, +19.3 MB against about 24 MB), the upper figure
 * with a growth of the index's columns inside the window. Heap snapshots put what a finished
 * block keeps at about 220 B of objects (docs/performance.md).
 */

const SECONDS = Number(process.env['LIVE_SOAK_SECONDS'] ?? 60);
/** The index's budget per envelope (envelope and frame columns: docs/performance.md). */
const INDEX_BYTES = 24;
/** What a finished block may keep beyond the index: about 220 B measured, with room for a loaded machine's noise. */
const PER_BLOCK_BYTES = 300;
/** Fixed slack: the spool files' write buffers, the batcher's queue, the caches of recently read blocks. */
const SLACK_BYTES = 2 * 1024 * 1024;
/** RSS may grow by this many times the retained bound (and 64 MiB): see the last check. */
const RSS_PER_RETAINED = 2.5;

let agent: DemoAgent;
let service: SessionService;

beforeEach(async () => {
  agent = await startDemoAgent();
  service = createDefaultSessionService();
});

afterEach(async () => {
  await service.dispose();
  await agent.close();
});

interface Sample {
  retained: number;
  rss: number;
  envelopes: number;
  blocks: number;
}

describe('the memory soak: a live session of an endless stream of small blocks', () => {
  it(
    `keeps its index and a small record per block for ${SECONDS} s, RSS bounded`,
    { timeout: SECONDS * 1000 + 60_000 },
    async () => {
      // The host forwards every batch to the page; here they are taken and dropped.
      const unsubscribe = service.onSessionBatch(() => undefined);
      const body = JSON.stringify({ user_prompt: 'soak', scenario: 'firehose', rate: 1_000_000, duration: 0 });
      const { id } = await service.connect({
        url: `${agent.url}/agent/run`,
        method: 'POST',
        headers: [],
        body: { kind: 'json', text: body },
      });
      const samples: Sample[] = [];
      const until = performance.now() + SECONDS * 1000;
      while (performance.now() < until) {
        await new Promise((done) => setTimeout(done, 2000));
        const { summary } = await service.getSession({ sessionId: id });
        expect(summary.state, 'the stream is still flowing').toBe('streaming');
        samples.push({
          retained: retainedHeap(),
          rss: process.memoryUsage().rss,
          envelopes: summary.envelopes,
          blocks: summary.blocks ?? 0,
        });
      }
      await service.stop({ sessionId: id });
      unsubscribe();

      // The second half against its first sample: start-up (code compiled, columns first
      // grown, V8's pages) is not the stream's.
      const window = samples.slice(Math.floor(samples.length / 2));
      const first = window[0];
      const last = window.at(-1);
      expect(first && last && last !== first, `samples: ${samples.length}`).toBeTruthy();
      if (!first || !last) return;
      const envelopes = last.envelopes - first.envelopes;
      const blocks = last.blocks - first.blocks;
      const grown = Math.max(...window.map((s) => s.retained)) - first.retained;
      const rssGrown = Math.max(...window.map((s) => s.rss)) - first.rss;
      // The index's columns grow by a fifth at once: up to a fifth of the index may arrive in one step.
      const bound = SLACK_BYTES + INDEX_BYTES * (envelopes + last.envelopes / 5) + PER_BLOCK_BYTES * blocks;
      const beyondIndex = (last.retained - first.retained - INDEX_BYTES * envelopes) / blocks;
      const figures = `${envelopes} envelopes, ${blocks} blocks in the second half of ${SECONDS} s; retained ${first.retained} → ${last.retained} (peak +${grown}), ${Math.round(beyondIndex)} B per block beyond ${INDEX_BYTES} B per envelope; RSS ${first.rss} → ${last.rss} (peak +${rssGrown})`;
      if (process.env['LIVE_SOAK_SECONDS']) console.info(figures);
      expect(blocks, `the stream kept flowing: ${figures}`).toBeGreaterThan(1000);
      expect(grown, figures).toBeLessThan(bound);
      // RSS follows what is retained, with room for V8's pages and the allocator's. V8 sets
      // its next full collection at a multiple of the live heap (1.1 to 4 times), so it commits
      // pages well ahead of what is retained, the more so the larger the heap: on a quiet
      // machine (3.15 M envelopes in the window) the retained peak was +136 MB and RSS +253 MB;
      // on a faster run (5.16 M envelopes, CI at stop 39) +259 MB within its bound of 276 MB
      // and RSS +603 MB. What the session keeps is the retained bound above; RSS only has to
      // stay of its order.
      expect(rssGrown, figures).toBeLessThan(RSS_PER_RETAINED * bound + 64 * 1024 * 1024);
    },
  );
});
