import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { createLog2Histogram, type HistogramSummary } from './log2-histogram';

describe('log2 histogram', () => {
  it('is all zeros when empty', () => {
    expect(createLog2Histogram().summary()).toEqual({ count: 0, min: 0, max: 0, mean: 0, p50: 0, p95: 0, buckets: [] });
  });

  it('puts values in power-of-two buckets, listing empty buckets between non-empty ones', () => {
    const h = createLog2Histogram();
    for (const v of [0, 0.5, 1, 3, 3, 40]) h.add(v);
    const s = h.summary();
    expect(s).toMatchObject({ count: 6, min: 0, max: 40, mean: 47.5 / 6 });
    expect(s.buckets).toEqual([
      { lo: 0, hi: 1, count: 2 },
      { lo: 1, hi: 2, count: 1 },
      { lo: 2, hi: 4, count: 2 },
      { lo: 4, hi: 8, count: 0 },
      { lo: 8, hi: 16, count: 0 },
      { lo: 16, hi: 32, count: 0 },
      { lo: 32, hi: 64, count: 1 },
    ]);
  });

  it('adds a value several times at once', () => {
    const h = createLog2Histogram();
    h.add(0, 3);
    h.add(5, 0);
    expect(h.summary()).toMatchObject({ count: 3, max: 0, buckets: [{ lo: 0, hi: 1, count: 3 }] });
  });

  it('gives exact percentiles when all values are equal', () => {
    const h = createLog2Histogram();
    h.add(2048, 10);
    expect(h.summary()).toMatchObject({ p50: 2048, p95: 2048, min: 2048, max: 2048 });
  });

  it('estimates percentiles to within the bucket factor of two', () => {
    const random = seededRandom(9);
    const values = Array.from({ length: 5000 }, () => Math.floor(random() * random() * 100_000));
    const h = createLog2Histogram();
    for (const v of values) h.add(v);
    const sorted = [...values].sort((a, b) => a - b);
    const exact = (q: number) => sorted[Math.ceil(q * sorted.length) - 1] as number;
    const s = h.summary();
    for (const [estimate, q] of [
      [s.p50, 0.5],
      [s.p95, 0.95],
    ] as const) {
      expect(estimate).toBeGreaterThanOrEqual(exact(q) / 2);
      expect(estimate).toBeLessThanOrEqual(exact(q) * 2);
    }
  });

  it('counts a negative value (a clock going backwards) in the first bucket and keeps it as min', () => {
    const h = createLog2Histogram();
    h.add(-5);
    h.add(10);
    expect(h.summary()).toMatchObject({
      min: -5,
      buckets: [
        { lo: 0, hi: 1, count: 1 },
        { lo: 1, hi: 2, count: 0 },
        { lo: 2, hi: 4, count: 0 },
        { lo: 4, hi: 8, count: 0 },
        { lo: 8, hi: 16, count: 1 },
      ],
    });
  });

  it('clones independently', () => {
    const h = createLog2Histogram();
    h.add(1);
    const copy = h.clone();
    copy.add(100);
    expect(h.summary().count).toBe(1);
    expect(copy.summary()).toMatchObject({ count: 2, max: 100 });
  });

  /**
   * Read at any point, with adds of one value and of several alternating, the summary is what
   * the values added so far give, one by one in order (a reading changes nothing).
   */
  it('reads the same whenever it is read', () => {
    const random = seededRandom(26);
    const value = (): number => {
      const r = random();
      if (r < 0.02) return Number.NaN;
      if (r < 0.05) return -random() * 100;
      if (r < 0.3) return random() * 10;
      if (r < 0.35) return 2 ** Math.floor(random() * 40);
      return Math.floor(random() * random() * 200_000);
    };
    const readOften = createLog2Histogram();
    const readAtEnd = createLog2Histogram();
    /** Each add as [value, times]: a value added n times at once adds value × n to the sum. */
    const added: [number, number][] = [];
    let readCopy = createLog2Histogram();
    // A first run of single adds, then reads and adds of several at once at random points.
    for (let i = 0; i < 6000; i++) {
      const v = value();
      const times = i > 2000 && random() < 0.05 ? Math.floor(random() * 4) : 1;
      readOften.add(v, times);
      readAtEnd.add(v, times);
      if (!Number.isNaN(v) && times > 0) added.push([v, times]);
      if (i > 2000 && random() < 0.01) readCopy = readOften.clone();
      if (i > 2000 && random() < 0.01) expect(readOften.summary()).toEqual(expectedSummary(added, readOften.summary()));
    }
    expect(readOften.summary()).toEqual(readAtEnd.summary());
    expect(readAtEnd.summary()).toEqual(expectedSummary(added, readAtEnd.summary()));
    expect(readCopy.summary().count).toBeLessThanOrEqual(readAtEnd.summary().count);
  });
});

/** The summary of `values` computed directly (percentiles, estimated from buckets, taken from `summary`). */
function expectedSummary(added: readonly [number, number][], summary: HistogramSummary): HistogramSummary {
  const bucketOf = (v: number): number => {
    let b = 0;
    while (b < 47 && v >= 2 ** b) b++;
    return b;
  };
  const counts = new Map<number, number>();
  let sum = 0;
  let count = 0;
  for (const [v, times] of added) {
    counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + times);
    sum += v * times;
    count += times;
  }
  const values = added.map(([v]) => v);
  const used = [...counts.keys()];
  const first = Math.min(...used);
  const buckets = [];
  for (let b = first; b <= Math.max(...used); b++)
    buckets.push({ lo: b === 0 ? 0 : 2 ** (b - 1), hi: 2 ** b, count: counts.get(b) ?? 0 });
  return {
    count,
    min: Math.min(...values),
    max: Math.max(...values),
    mean: sum / count,
    p50: summary.p50,
    p95: summary.p95,
    buckets,
  };
}
