import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeLegs, type ChunkInput } from '../../../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../../../src-shared/sse/rechunk';
import { generateStreams } from '../../../../src-shared/testing/fuzz-streams';
import { everyStreamFixture, FIXTURES_DIR } from '../../../testing/fixtures';
import { builtInFuzzGrammars } from '../../../testing/fuzz-grammars';
import { createSessionStore, type SessionStore } from './session-store';

/** `bytes` as network chunks of a few sizes, received 3 ms apart. */
function chunksOf(bytes: Uint8Array, from = 0): ChunkInput[] {
  const sizes = [1, 7, 300, 4096, 13];
  const chunks: ChunkInput[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] as number;
    chunks.push({ bytes: bytes.subarray(at, at + size), receivedAt: from + i * 3 });
    at += size;
  }
  return chunks;
}

function storeOf(): SessionStore {
  return createSessionStore({
    id: 's',
    title: 't',
    source: { kind: 'live', method: 'POST', url: 'http://127.0.0.1/agent/run' },
    createdAt: 0,
  });
}

/** Pushes each leg's chunks into its own leg of `store`, ending each; `ask` runs after every chunk. */
async function feed(
  store: SessionStore,
  legs: readonly (readonly ChunkInput[])[],
  ask?: () => Promise<void>,
): Promise<void> {
  for (const chunks of legs) {
    const leg = store.openLeg('run', null, 0).index;
    for (const chunk of chunks) {
      store.push(leg, chunk.bytes, chunk.receivedAt ?? 0);
      await ask?.();
    }
    store.endLeg(leg, { reason: 'complete' });
  }
  store.finish();
}

describe('statistics counted when asked, from what the store keeps', () => {
  it.each(everyStreamFixture())('equal the decoder’s own for %s', async (path) => {
    const chunks = chunksOf(new Uint8Array(readFileSync(path)));
    const store = storeOf();
    await feed(store, [chunks]);
    expect(await store.stats()).toEqual(decodeLegs([chunks]).stats);
  });

  it.each([...builtInFuzzGrammars()])(
    'equal the decoder’s own on generated %s streams, broken ones among them',
    async (_id, grammar) => {
      const chunks = chunksOf(generateStreams(grammar, seededRandom(35), 24_000));
      const store = storeOf();
      await feed(store, [chunks]);
      expect(await store.stats()).toEqual(decodeLegs([chunks]).stats);
    },
  );

  it('go on from where the last call stopped: asked after every chunk, the end is the same as asked once', async () => {
    const json = chunksOf(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'example_1.json.sse'))));
    const xml = chunksOf(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'example_1.xml.sse'))), 10_000);
    const expected = decodeLegs([json, xml]).stats;
    const store = storeOf();
    const seen: number[] = [];
    await feed(store, [json, xml], async () => {
      const { legs } = (await store.stats()) as typeof expected;
      seen.push(legs.reduce((sum, leg) => sum + leg.chunks, 0));
    });
    expect(await store.stats()).toEqual(expected);
    // Every chunk as soon as it is in.
    expect(seen[0]).toBe(1);
    expect(seen[json.length - 1]).toBe(json.length);
    expect(seen.at(-1)).toBe(json.length + xml.length);
    expect(seen.every((count, i) => i === 0 || count >= (seen[i - 1] as number))).toBe(true);
  });

  it('count a network chunk delivered in parts (a replay stepping an event at a time) as the one chunk it was', async () => {
    const bytes = new TextEncoder().encode(
      'data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\ndata: {"type":"text","agent":"a","final":true,"delta":"!"}\n\n',
    );
    const store = storeOf();
    const leg = store.openLeg('run', null, 0).index;
    store.push(leg, bytes.subarray(0, 70), 5);
    const part = (await store.stats()) as { frames: number; legs: { chunks: number; bytes: number }[] };
    expect(part.frames).toBe(1);
    expect(part.legs[0]).toMatchObject({ chunks: 1, bytes: 70 });
    store.push(leg, bytes.subarray(70), 5, true);
    store.endLeg(leg, { reason: 'complete' });
    store.finish();
    expect(await store.stats()).toEqual(decodeLegs([[{ bytes, receivedAt: 5 }]]).stats);
  });

  it('count a large session in slices, answering other calls between them, and two calls at once count once', async () => {
    const chunks = chunksOf(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'example_1.json.sse'))));
    const legs = Array.from({ length: 40 }, () => chunks);
    const store = storeOf();
    await feed(store, legs);
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const [first, second] = await Promise.all([store.stats(), store.stats()]);
    clearInterval(ticking);
    expect(second).toEqual(first);
    expect(first).toEqual(decodeLegs(legs).stats);
    expect(turns).toBeGreaterThan(0);
  });

  it('say so, and count nothing wrong, when the session is closed while they are counted', async () => {
    const chunks = chunksOf(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'example_1.json.sse'))));
    const store = storeOf();
    // 14 MB: more than a quiet machine counts in one slice (40 copies, 1.4 MB, sometimes fitted in one).
    await feed(
      store,
      Array.from({ length: 400 }, () => chunks),
    );
    const asked = store.stats();
    // The count yields every few milliseconds: the session is closed at the first turn.
    await new Promise((resolve) => setImmediate(resolve));
    store.dispose();
    await expect(asked).rejects.toThrow(/The session was closed/);
  });
});
