import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { createLog2Histogram } from './log2-histogram';

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
});
