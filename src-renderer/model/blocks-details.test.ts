import { describe, expect, test } from 'vitest';
import type { BlockDetail, BlockSummary } from '../../src-shared/contract';
import { createBlockDetails } from './blocks-details';

type Summary = Pick<
  BlockSummary,
  'id' | 'length' | 'status' | 'envelopeCount' | 'citations' | 'images' | 'linkedBlock'
>;

function summary(length: number, status: BlockSummary['status'] = 'open'): Summary {
  return { id: 7, length, status, envelopeCount: length, citations: 0, images: 0 };
}

function detailOf(content: string): BlockDetail {
  return {
    id: 7,
    agent: 'a',
    kind: 'text',
    status: 'open',
    content,
    citations: [],
    images: [],
    envelopes: [],
    leg: 0,
    byteStart: 0,
    byteEnd: 0,
  };
}

/** A fetch whose answers the test releases by hand, and a clock the test moves. */
function harness(minIntervalMs = 100) {
  const pending: { resolve: (d: BlockDetail) => void; reject: (e: Error) => void }[] = [];
  const timers: { at: number; run: () => void }[] = [];
  let clock = 0;
  let fetches = 0;
  let notifications = 0;
  const details = createBlockDetails({
    fetch: () => {
      fetches++;
      return new Promise<BlockDetail>((resolve, reject) => pending.push({ resolve, reject }));
    },
    now: () => clock,
    schedule: (run, ms) => timers.push({ at: clock + ms, run }),
    minIntervalMs,
  });
  details.subscribe(() => notifications++);
  return {
    details,
    get fetches() {
      return fetches;
    },
    get notifications() {
      return notifications;
    },
    async answer(content: string) {
      pending.shift()?.resolve(detailOf(content));
      await Promise.resolve();
    },
    async fail(message: string) {
      pending.shift()?.reject(new Error(message));
      await Promise.resolve();
    },
    advance(ms: number) {
      clock += ms;
      const due = timers.filter((t) => t.at <= clock);
      timers.splice(0, timers.length, ...timers.filter((t) => t.at > clock));
      for (const timer of due) timer.run();
    },
  };
}

describe('createBlockDetails', () => {
  test('fetches once per version and serves the cached detail', async () => {
    const h = harness();
    h.details.want(summary(3));
    h.details.want(summary(3));
    expect(h.fetches).toBe(1);
    expect(h.details.entry(7)?.loading).toBe(true);
    await h.answer('abc');
    expect(h.details.entry(7)).toMatchObject({ detail: { content: 'abc' }, loading: false, error: null });
    h.details.want(summary(3));
    expect(h.fetches).toBe(1);
  });

  test('a block growing during a fetch is fetched again when the fetch returns, not per change', async () => {
    const h = harness(0);
    h.details.want(summary(1));
    h.details.want(summary(2));
    h.details.want(summary(3));
    expect(h.fetches).toBe(1);
    await h.answer('a');
    expect(h.fetches).toBe(2);
    await h.answer('abc');
    expect(h.details.entry(7)?.detail?.content).toBe('abc');
    expect(h.fetches).toBe(2);
  });

  test('re-fetches of a live block are spaced by minIntervalMs and the last change is fetched', async () => {
    const h = harness(100);
    h.details.want(summary(1));
    await h.answer('a');
    h.advance(10);
    h.details.want(summary(2));
    h.details.want(summary(3));
    expect(h.fetches).toBe(1);
    h.advance(89);
    expect(h.fetches).toBe(1);
    h.advance(1);
    expect(h.fetches).toBe(2);
    await h.answer('abc');
    expect(h.details.entry(7)?.detail?.content).toBe('abc');
  });

  test('an error is kept in place and not retried until the block changes', async () => {
    const h = harness(0);
    h.details.want(summary(1));
    await h.fail('Unknown block 7');
    expect(h.details.entry(7)).toMatchObject({ error: 'Unknown block 7', loading: false });
    h.details.want(summary(1));
    expect(h.fetches).toBe(1);
    h.details.want(summary(1, 'complete'));
    expect(h.fetches).toBe(2);
  });

  test('dispose stops notifications', async () => {
    const h = harness(0);
    h.details.want(summary(1));
    const before = h.notifications;
    h.details.dispose();
    await h.answer('late');
    expect(h.notifications).toBe(before);
    expect(h.details.entry(7)).toBeUndefined();
  });
});
