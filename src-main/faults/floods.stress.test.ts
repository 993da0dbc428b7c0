import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionDecoder } from '../../src-shared/pipeline/session-decoder';
import { openConnection } from '../services/connection/connection';
import {
  SSE_HEADERS,
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
} from '../services/connection/loopback-testing';
import { settled, waitFor } from '../services/sessions/service-testing';
import { createSessionService, type SessionService } from '../services/sessions/session-service';
import { retainedHeap } from '../testing/memory';

/**
 * The stress part of the faults suite (docs/reliability.md, "Faults"), run as its own step of
 * `npm test` (`npm run test:stress`): floods and giants on real loopback servers — 200,000
 * events as fast as the socket takes them, one 50 MB event, a million events — with what must
 * still hold, memory included.
 */

const AGENT = '11111111-1111-4111-8111-111111111111';
const event = (delta: string, final = false): string =>
  `data: ${JSON.stringify({ type: 'text', agent: AGENT, final, delta })}\n\n`;

let server: LoopbackServer | undefined;
let service: SessionService | undefined;

afterEach(async () => {
  await service?.dispose();
  await server?.close();
  server = service = undefined;
});

async function serve(handler: LoopbackHandler): Promise<LoopbackServer> {
  server = await startLoopbackServer(handler);
  return server;
}

/** Writes what `next` yields as fast as the socket drains, then ends. */
async function pour(res: ServerResponse, next: () => string | null): Promise<void> {
  res.writeHead(200, SSE_HEADERS);
  for (let piece = next(); piece !== null; piece = next()) {
    if (res.destroyed) return;
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** `count` events, `perWrite` to a write. */
function eventsOf(count: number, perWrite: number, delta = (i: number): string => `e${i} `): () => string | null {
  let i = 0;
  return () => {
    if (i > count) return null;
    let out = '';
    // The last delta is final: the block closes and the stream is a clean one, then [DONE].
    for (let n = 0; n < perWrite && i <= count; n++, i++)
      out += i === count ? 'data: [DONE]\n\n' : event(delta(i), i === count - 1);
    return out;
  };
}

/** Decodes a live GET stream with the shared pipeline (no session store): what stays in memory is the decoder's. */
async function decodeLive(
  url: string,
  onSample: () => void,
): Promise<{ envelopes: number; longestDelta: number; rules: string[] }> {
  let envelopes = 0;
  let longestDelta = 0;
  const rules: string[] = [];
  const decoder = createSessionDecoder({
    onEnvelope: (e) => {
      envelopes++;
      if (typeof e.delta === 'string' && e.delta.length > longestDelta) longestDelta = e.delta.length;
    },
    onDiagnostic: (d) => rules.push(d.rule),
  });
  const leg = decoder.startLeg();
  let chunks = 0;
  const outcome = await openConnection(
    { url: new URL(url), method: 'GET', headers: [] },
    {
      onChunk: (bytes, at) => {
        leg.push(bytes, at);
        if (++chunks % 64 === 0) onSample();
      },
    },
  ).done;
  expect(outcome.reason).toBe('complete');
  const end = leg.end();
  decoder.finish();
  expect(end.bytes).toBe(outcome.bytes);
  return { envelopes, longestDelta, rules };
}

describe('faults: floods and giants', () => {
  it(
    'firehose: 200,000 events written as fast as the socket takes them all reach the session, in order, none lost',
    { timeout: 120_000 },
    async () => {
      const count = 200_000;
      const { url } = await serve((_req, res) => pour(res, eventsOf(count, 2000)));
      service = createSessionService();
      // Rows arrive as column batches [start, start + n): each must start where the last ended.
      const ranges: [number, number][] = [];
      service.onSessionBatch((batch) => {
        const rows = batch.columns.receivedAt.length;
        if (rows > 0) ranges.push([batch.start, batch.start + rows]);
      });
      const { id } = await service.connect({ url: `${url}/firehose`, method: 'GET', headers: [] });
      const done = await settled(service, id, 100_000);
      expect(done).toMatchObject({ state: 'complete', envelopes: count + 1, diagnostics: { error: 0 } });
      await waitFor(() => ranges.at(-1)?.[1] === count + 1, 'every row to be batched', 20_000);
      expect(ranges[0]?.[0]).toBe(0);
      expect(ranges.every(([start], i) => i === 0 || start === ranges[i - 1]![1])).toBe(true);
      const last = await service.getEnvelope({ sessionId: id, seq: count - 1 });
      expect(last.delta).toBe(`e${count - 1} `);
    },
  );

  it(
    'one 50 MB event: decoded whole, with its budget findings, and memory stays within a few times its size',
    { timeout: 120_000 },
    async () => {
      const size = 50 * 1024 * 1024;
      const piece = 'x'.repeat(1024 * 1024);
      let sent = -1;
      const { url } = await serve((_req, res) =>
        pour(res, () => {
          sent++;
          if (sent === 0) return `data: {"type":"text","agent":"${AGENT}","final":true,"delta":"`;
          if (sent <= size / piece.length) return piece;
          if (sent === size / piece.length + 1) return '"}\n\ndata: [DONE]\n\n';
          return null;
        }),
      );
      const baseline = retainedHeap();
      let peak = 0;
      let samples = 0;
      const result = await decodeLive(`${url}/giant`, () => {
        samples++;
        peak = Math.max(peak, retainedHeap() - baseline);
      });
      expect(samples).toBeGreaterThan(5);
      expect(result.envelopes).toBe(2);
      expect(result.longestDelta).toBe(size);
      expect(result.rules).toEqual(expect.arrayContaining(['sse.oversize-line', 'envelope.over-budget']));
      expect(result.rules).not.toContain('json.invalid');
      // The line, its text and the parsed delta may coexist; a copy per chunk would not fit.
      expect(peak).toBeLessThan(4 * size);
    },
  );

  it('a million events: every one decoded, retained memory bounded', { timeout: 300_000 }, async () => {
    const count = 1_000_000;
    // One character each, cycling through 2,000 CJK characters: a run of one repeated delta
    // would read as retry replays (docs/diagnostics.md, block.restarted) and split the
    // text into a block per 8 characters.
    const { url } = await serve((_req, res) =>
      pour(
        res,
        eventsOf(count, 5000, (i) => String.fromCharCode(0x4e00 + (i % 2000))),
      ),
    );
    const baseline = retainedHeap();
    let peak = 0;
    let samples = 0;
    const result = await decodeLive(`${url}/million`, () => {
      samples++;
      peak = Math.max(peak, retainedHeap() - baseline);
    });
    expect(samples).toBeGreaterThan(5);
    expect(result.envelopes).toBe(count + 1);
    expect(result.rules.filter((r) => !r.startsWith('block.'))).toEqual([]);
    // One growing text block of a million one-character deltas. An open block keeps, per
    // delta, its envelope's number, the retry detector's copy of the delta and a node of the
    // content being appended to: about 70 bytes (docs/performance.md). Nothing else may grow
    // per event: a copy of each event's line or chunk would be well over 100 bytes.
    expect(peak / count).toBeLessThan(96);
  });
});
