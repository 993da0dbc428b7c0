import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { alignKeys, commonPairs, testing } from './align';

/** Length of the longest common subsequence, by dynamic programming (the reference). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] ?? 0;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(up, row[j - 1] ?? 0);
      diagonal = up;
    }
  }
  return row[b.length] ?? 0;
}

function expectValidPairs(pairs: readonly [number, number][], a: readonly string[], b: readonly string[]): void {
  let lastI = -1;
  let lastJ = -1;
  for (const [i, j] of pairs) {
    expect(a[i]).toBe(b[j]);
    expect(i).toBeGreaterThan(lastI);
    expect(j).toBeGreaterThan(lastJ);
    lastI = i;
    lastJ = j;
  }
}

function randomKeys(random: () => number, length: number, alphabet: number): string[] {
  return Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * alphabet)));
}

describe('alignKeys', () => {
  it('pairs equal lists one to one', () => {
    expect(alignKeys(['a', 'b'], ['a', 'b'])).toEqual([
      { left: 0, right: 0 },
      { left: 1, right: 1 },
    ]);
  });

  it('puts an inserted item between the pairs around it', () => {
    expect(alignKeys(['a', 'c'], ['a', 'b', 'c'])).toEqual([
      { left: 0, right: 0 },
      { right: 1 },
      { left: 1, right: 2 },
    ]);
  });

  it('lists the left items of a gap before the right ones', () => {
    expect(alignKeys(['a', 'x', 'c'], ['a', 'y', 'c'])).toEqual([
      { left: 0, right: 0 },
      { left: 1 },
      { right: 1 },
      { left: 2, right: 2 },
    ]);
  });

  it('handles empty sides', () => {
    expect(alignKeys([], ['a'])).toEqual([{ right: 0 }]);
    expect(alignKeys(['a'], [])).toEqual([{ left: 0 }]);
    expect(alignKeys([], [])).toEqual([]);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('finds a longest common subsequence of random lists (seed %i)', (seed) => {
    const random = seededRandom(seed);
    const a = randomKeys(random, 1 + Math.floor(random() * 60), 4);
    const b = randomKeys(random, 1 + Math.floor(random() * 60), 4);
    const pairs = commonPairs(a, b);
    expectValidPairs(pairs, a, b);
    expect(pairs.length).toBe(lcsLength(a, b));
    const rows = alignKeys(a, b);
    expect(rows.filter((r) => r.left !== undefined).map((r) => r.left)).toEqual(a.map((_, i) => i));
    expect(rows.filter((r) => r.right !== undefined).map((r) => r.right)).toEqual(b.map((_, j) => j));
  });

  it('falls back to a valid (if not longest) alignment when the lists differ by more edits than the exact diff allows', () => {
    const random = seededRandom(99);
    const size = testing.MAX_EXACT_EDITS * 2;
    const a = randomKeys(random, size, 20);
    const b = randomKeys(random, size, 20);
    expect(testing.myers(a, b)).toBeNull();
    const pairs = commonPairs(a, b);
    expectValidPairs(pairs, a, b);
    expect(pairs.length).toBeGreaterThan(size / 20);
  });

  it('pairs the n-th occurrences in the fallback and keeps them increasing', () => {
    const a = ['a', 'b', 'a', 'c'];
    const b = ['b', 'a', 'c', 'a'];
    const pairs = testing.occurrencePairs(a, b);
    expectValidPairs(pairs, a, b);
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    expect(pairs.length).toBeLessThanOrEqual(lcsLength(a, b));
  });
});
