import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../testing/fixtures';
import { BlockDetail, BlockSummary } from '../../../../src-shared/contract/payloads';
import type { Block } from '../../../../src-shared/reconstruct/types';
import { displayRequest, toBlockDetail, toBlockSummary } from './session-summary';
import { createSessionStore } from './session-store';

describe('session summary', () => {
  it('shows a request with its secrets redacted and a long body cut, saying so', () => {
    const shown = displayRequest({
      method: 'POST',
      url: 'http://127.0.0.1/run',
      headers: [
        ['authorization', 'Bearer sk-secret'],
        ['accept', 'text/event-stream'],
      ],
      body: 'x'.repeat(70_000),
    });
    expect(JSON.stringify(shown)).not.toContain('sk-secret');
    expect(shown.headers).toContainEqual(['accept', 'text/event-stream']);
    expect(shown.body?.length).toBe(64 * 1024);
    expect(shown.bodyTruncated).toBe(true);
    expect(displayRequest({ method: 'GET', url: 'http://127.0.0.1/', headers: [], body: null }).body).toBeUndefined();
  });

  it('sums the legs and gives an end status only once the session ended: stopped, or truncated when cut', () => {
    const data = createSessionStore({
      id: 's',
      title: 't',
      source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
      createdAt: 5,
    });
    const bytes = readFixture('example_1.json.sse');
    // Cut inside its first event: the agent's endpoint says which protocol it was, and that it was cut short.
    const run = { method: 'POST', url: 'http://127.0.0.1/agent/run', headers: [], body: null };
    const leg = data.openLeg('run', run, 0).index;
    data.push(leg, bytes.subarray(0, 200), 1);
    data.state = 'streaming';
    expect(data.summary()).toMatchObject({
      id: 's',
      createdAt: 5,
      legs: 1,
      bytes: 200,
      state: 'streaming',
      awaitingTools: false,
    });
    expect(data.summary().end).toBeUndefined();
    data.endLeg(leg, { reason: 'aborted', message: 'cut' });
    data.finish();
    data.state = 'complete';
    expect(data.summary().end?.kind).toBe('truncated');
    data.state = 'stopped';
    expect(data.summary().end?.kind).toBe('stopped');
  });

  it('details each leg with its request shown redacted', () => {
    const data = createSessionStore({
      id: 's',
      title: 't',
      source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
      createdAt: 0,
    });
    data.openLeg('run', { method: 'GET', url: 'http://127.0.0.1/?api_key=sk-secret', headers: [], body: null }, 0);
    const detail = data.detail(null);
    expect(detail.legs).toHaveLength(1);
    expect(detail.legs[0]).toMatchObject({ leg: 0, kind: 'run', bytes: 0, chunks: 0, frames: 0 });
    expect(JSON.stringify(detail)).not.toContain('sk-secret');
  });
});

describe('a block past the held-content cap', () => {
  it('says in its summary and its detail how many characters are counted, not held, and checks against the contract', () => {
    const block: Block = {
      id: 3,
      agent: 'a',
      kind: 'text',
      status: 'complete',
      content: 'held',
      citations: [],
      images: [],
      envelopes: [7, 8],
      leg: 0,
      byteStart: 0,
      byteEnd: 90,
      omittedChars: 1234,
    };
    const summary = toBlockSummary(block);
    const detail = toBlockDetail(block);
    expect([summary.omittedChars, detail.omittedChars]).toEqual([1234, 1234]);
    expect(BlockSummary.parse(summary)).toEqual(summary);
    expect(BlockDetail.parse(detail)).toEqual(detail);
    const { omittedChars: _omitted, ...whole } = block;
    expect('omittedChars' in toBlockSummary(whole)).toBe(false);
  });
});
