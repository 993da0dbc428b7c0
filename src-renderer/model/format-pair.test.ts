import { describe, expect, test } from 'vitest';
import type { RequestInfo, SessionSummary } from '../../src-shared/contract';
import type { SessionsSnapshot } from './types';
import { offersFormatPair, whenAllEnded } from './format-pair';
import { createStore } from './store';

const request = (url: string, body?: string): RequestInfo => ({
  method: 'POST',
  url,
  headers: [],
  ...(body !== undefined ? { body } : {}),
});
const live = {
  source: { kind: 'live' as const, method: 'POST', url: 'http://h/agent/run' },
  state: 'complete' as const,
  format: 'json' as const,
};

describe('offersFormatPair', () => {
  test('an ended live session whose request has a JSON object body or a ?format=', () => {
    expect(offersFormatPair(live, request('http://h/agent/run', '{"user_prompt":"hi"}'))).toBe(true);
    expect(offersFormatPair(live, request('http://h/agent/run?format=json'))).toBe(true);
  });

  test('not while it streams, not for files or replays, not without a place for the format', () => {
    expect(offersFormatPair({ ...live, state: 'streaming' }, request('http://h/agent/run', '{}'))).toBe(false);
    expect(
      offersFormatPair(
        { source: { kind: 'file', path: '/x', importer: 'sse' }, state: 'complete', format: 'json' },
        request('http://h/agent/run', '{}'),
      ),
    ).toBe(false);
    expect(
      offersFormatPair(
        { source: { kind: 'replay', of: 's1' }, state: 'complete', format: 'json' },
        request('http://h/agent/run', '{}'),
      ),
    ).toBe(false);
    expect(offersFormatPair(live, request('http://h/agent/run', '[1]'))).toBe(false);
    expect(offersFormatPair(live, request('http://h/agent/run', 'not json'))).toBe(false);
    expect(offersFormatPair(live, request('http://h/agent/run'))).toBe(false);
    expect(offersFormatPair(live, null)).toBe(false);
  });

  test('only for the upstream agent wire formats: a provider API stream has no other format to run in', () => {
    const body = request('http://h/v1/messages', '{"model":"m","stream":true}');
    for (const format of ['xml', 'raw'] as const) expect(offersFormatPair({ ...live, format }, body)).toBe(true);
    for (const format of ['anthropic-messages', 'openai-responses', 'segments'] as const)
      expect(offersFormatPair({ ...live, format }, body)).toBe(false);
    expect(offersFormatPair({ ...live, format: null }, body)).toBe(false);
  });
});

describe('whenAllEnded', () => {
  const summary = (id: string, state: SessionSummary['state']): SessionSummary => ({
    id,
    title: id,
    source: { kind: 'live', method: 'POST', url: 'http://h' },
    state,
    createdAt: 0,
    legs: 1,
    envelopes: 1,
    bytes: 1,
    format: null,
    diagnostics: { error: 0, warning: 0, info: 0 },
    awaitingTools: false,
  });

  test('waits for sessions not listed yet, then for both to end, and calls once in the order asked', () => {
    const store = createStore<SessionsSnapshot>({ list: [], activeId: null });
    const calls: string[][] = [];
    whenAllEnded(store, ['a', 'b'], (ended) => calls.push(ended.map((s) => s.id)));
    store.set({ list: [summary('b', 'streaming'), summary('a', 'connecting')], activeId: null });
    store.set({ list: [summary('b', 'complete'), summary('a', 'streaming')], activeId: null });
    expect(calls).toEqual([]);
    store.set({ list: [summary('b', 'complete'), summary('a', 'failed')], activeId: null });
    store.set({ list: [summary('b', 'complete'), summary('a', 'failed')], activeId: null });
    expect(calls).toEqual([['a', 'b']]);
  });

  test('gives up when one is closed first, and can be cancelled', () => {
    const store = createStore<SessionsSnapshot>({
      list: [summary('a', 'streaming'), summary('b', 'streaming')],
      activeId: null,
    });
    const calls: unknown[] = [];
    whenAllEnded(store, ['a', 'b'], (ended) => calls.push(ended));
    store.set({ list: [summary('a', 'streaming')], activeId: null });
    store.set({ list: [summary('a', 'complete'), summary('b', 'complete')], activeId: null });
    const cancel = whenAllEnded(store, ['a', 'b'], (ended) => calls.push(ended));
    expect(calls.length).toBe(1);
    cancel();
    const later = whenAllEnded(store, ['x'], (ended) => calls.push(ended));
    later();
    store.set({ list: [summary('x', 'complete')], activeId: null });
    expect(calls.length).toBe(1);
  });
});
