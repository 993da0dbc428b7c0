import { describe, expect, it } from 'vitest';
import { rows } from '../testing/fake-service';
import { laneAxis, sessionIsTimed } from './lane-axis';
import { RowIndex } from './row-index';

function indexOf(times: readonly number[]): RowIndex {
  const index = new RowIndex();
  index.setTotal(times.length);
  for (const row of rows(0, times.length, (seq) => ({ receivedAt: times[seq]! }))) index.set(row);
  return index;
}

describe('lane axis', () => {
  it('measures receive time when the envelopes arrived at different times', () => {
    const index = indexOf([100, 100, 130]);
    expect(laneAxis(index)).toBe('time');
  });

  it('regression: a capture without timing piled every tick at x = 0 — it falls back to sequence order', () => {
    const index = indexOf([0, 0, 0, 0]);
    expect(laneAxis(index)).toBe('sequence');
  });

  it('skips rows not known yet, and a single envelope is in sequence order', () => {
    const index = new RowIndex();
    index.setTotal(3);
    index.set(rows(1, 2, () => ({ receivedAt: 50 }))[0]!);
    expect(laneAxis(index)).toBe('sequence');
    index.set(rows(2, 3, () => ({ receivedAt: 60 }))[0]!);
    expect(laneAxis(index)).toBe('time');
  });

  it('a session is timed while it arrives, or once ended when its envelopes carry different times', () => {
    expect(sessionIsTimed(indexOf([0, 0, 0]), false)).toBe(false);
    expect(sessionIsTimed(indexOf([0, 0, 0]), true)).toBe(true);
    expect(sessionIsTimed(indexOf([100, 100, 130]), false)).toBe(true);
    expect(sessionIsTimed(indexOf([0]), false)).toBe(true);
  });
});
