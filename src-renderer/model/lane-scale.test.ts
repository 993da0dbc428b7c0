import { describe, expect, it } from 'vitest';
import { rows } from '../testing/fake-service';
import { columnHeight, IDLE_GAP_MS, laneColumns, laneScale } from './lane-scale';
import { RowIndex } from './row-index';

function indexOf(times: readonly number[]): RowIndex {
  const index = new RowIndex();
  index.setTotal(times.length);
  for (const row of rows(0, times.length, (seq) => ({ receivedAt: times[seq]! }))) index.set(row);
  return index;
}

describe('lane scale: idle gaps compressed', () => {
  it('draws a human think-time between two legs a few percent of the busy time wide', () => {
    // Two bursts of 1 s each, 60 s apart (a frontend tool answered by hand).
    const times = [0, 250, 500, 750, 1000, 61_000, 61_250, 61_500, 61_750, 62_000];
    const scale = laneScale(indexOf(times), 0);
    expect(scale.gaps).toEqual([{ from: 1000, to: 61_000 }]);
    const positions = times.map((t) => scale.position(t));
    // The busy stretches keep their milliseconds; the gap is 4 % of the 2 s that are not idle.
    expect(positions).toEqual([0, 250, 500, 750, 1000, 1080, 1330, 1580, 1830, 2080]);
    // And back: every position maps to its time, inside the gap too.
    for (const t of [...times, 30_000]) expect(scale.time(scale.position(t))).toBeCloseTo(t, 6);
  });

  it('keeps a steady stream as it is: no gap under IDLE_GAP_MS, nor one small beside the whole', () => {
    const steady = laneScale(indexOf([0, 1000, IDLE_GAP_MS - 1 + 1000]), 0);
    expect(steady.gaps).toEqual([]);
    expect(steady.position(1234)).toBe(1234);
    // The first 3 s of silence are nothing beside 10 minutes; the 597 s after them are.
    const long = laneScale(indexOf([0, 3000, 600_000]), 0);
    expect(long.gaps).toEqual([{ from: 3000, to: 600_000 }]);
    expect(laneScale(indexOf([0, 300_000, 303_000, 600_000]), 0).gaps).toEqual([
      { from: 0, to: 300_000 },
      { from: 303_000, to: 600_000 },
    ]);
  });
});

describe('lane columns: overlapping marks become a density strip', () => {
  it('counts the marks per column and keeps the most important category', () => {
    const columns = laneColumns(4, [
      { x: 1, rank: 2 },
      { x: 1, rank: 5 },
      { x: 1, rank: 3 },
      { x: 3, rank: 1 },
      { x: 9, rank: 7 },
    ]);
    expect([...columns.counts]).toEqual([0, 3, 0, 1]);
    expect([...columns.best]).toEqual([-1, 5, -1, 1]);
    expect(columns.max).toBe(3);
  });

  it('regression: at full zoom every column was a full tick, one solid bar — heights follow the counts', () => {
    expect(columnHeight(1, 1, 18)).toBe(18);
    expect(columnHeight(1000, 1000, 18)).toBe(18);
    expect(columnHeight(30, 1000, 18)).toBe(9);
    // A few marks beside a column of thousands still read as more than one.
    expect(columnHeight(1, 5000, 18)).toBe(2);
    expect(columnHeight(8, 5000, 18)).toBe(5);
  });
});
