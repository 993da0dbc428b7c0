import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../../src-shared/filter';
import { createSessionStore } from './session-store';

/** A session decoded from `events` (JSON dialect payloads), one chunk each. */
function sessionOf(events: string[]) {
  const data = createSessionStore({
    id: 's',
    title: 't',
    source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
    createdAt: 0,
  });
  const leg = data.openLeg('run', null, 1000).index;
  events.forEach((e, i) => data.push(leg, new TextEncoder().encode(`data: ${e}\n\n`), 1000 + i * 500));
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  return data;
}

const text = (agent: string, delta: string, final = false) => JSON.stringify({ type: 'text', agent, final, delta });

describe('session filter', () => {
  const data = sessionOf([text('a', 'hel'), text('a', 'lo wor'), text('b', 'other'), text('a', 'ld', true), '[DONE]']);

  it('selects by envelope fields, in order', () => {
    expect(data.filter(parseFilter('delta contains "o"'), 100).seqs).toEqual([1, 2]);
    expect(data.filter(parseFilter('final == true && type == "text"'), 100).seqs).toEqual([3]);
  });

  it('finds a word split across deltas of one block, on every envelope carrying part of it', () => {
    expect(data.filter(parseFilter('"hello"'), 100).seqs).toEqual([0, 1]);
    expect(data.filter(parseFilter('"world"'), 100).seqs).toEqual([1, 3]);
  });

  it("counts time from the first leg's start", () => {
    expect(data.filter(parseFilter('time >= 1s'), 100).seqs).toEqual([2, 3, 4]);
  });

  it('stops at max and says the list was cut', () => {
    expect(data.filter(parseFilter('type == "text"'), 2)).toEqual({ seqs: [0, 1], truncated: true });
    expect(data.filter(parseFilter('type == "text"'), 4)).toEqual({ seqs: [0, 1, 2, 3], truncated: false });
  });
});
