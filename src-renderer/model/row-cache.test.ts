import { describe, expect, it } from 'vitest';
import type { RowsPage } from '../../src-shared/contract';
import { row, rows, settle } from '../testing/fake-service';
import { PAGE_SIZE, RowCache } from './row-cache';

function cache(maxPages: number, total = PAGE_SIZE * 10) {
  const all = rows(0, total);
  const fetched: number[] = [];
  let loaded = 0;
  const errors: unknown[] = [];
  const rowCache = new RowCache(
    (start, count): Promise<RowsPage> => {
      fetched.push(start);
      return Promise.resolve({ total, start, rows: all.slice(start, start + count) });
    },
    () => loaded++,
    (error) => errors.push(error),
    maxPages,
  );
  return { rowCache, fetched, loaded: () => loaded, errors, total };
}

describe('row cache', () => {
  it('evicts the least recently used page beyond its capacity', () => {
    const { rowCache } = cache(2);
    rowCache.put(row(0));
    rowCache.put(row(PAGE_SIZE));
    // Touch page 0 so page 1 becomes the oldest.
    rowCache.ensure([0], PAGE_SIZE * 10);
    rowCache.put(row(PAGE_SIZE * 2));
    expect(rowCache.pageCount).toBe(2);
    expect(rowCache.get(0)).toBeDefined();
    expect(rowCache.get(PAGE_SIZE)).toBeUndefined();
    expect(rowCache.get(PAGE_SIZE * 2)).toBeDefined();
  });

  it('asks for each missing page once while it is in flight, and reports arrival', async () => {
    const { rowCache, fetched, loaded, total } = cache(10);
    rowCache.ensure([1, 2, 3, PAGE_SIZE + 1], total);
    rowCache.ensure([4], total);
    expect(fetched).toEqual([0, PAGE_SIZE]);
    await settle();
    expect(loaded()).toBe(2);
    expect(rowCache.get(PAGE_SIZE + 1)?.seq).toBe(PAGE_SIZE + 1);
    rowCache.ensure([1], total);
    expect(fetched).toEqual([0, PAGE_SIZE]);
  });

  it('asks for the short last page only up to the total', () => {
    const { rowCache, fetched } = cache(10, PAGE_SIZE + 5);
    const counts: number[] = [];
    const probe = new RowCache(
      (start, count) => {
        counts.push(count);
        return Promise.resolve({ total: PAGE_SIZE + 5, start, rows: [] });
      },
      () => {},
      () => {},
    );
    probe.ensure([PAGE_SIZE + 2], PAGE_SIZE + 5);
    expect(counts).toEqual([5]);
    rowCache.ensure([PAGE_SIZE * 3], PAGE_SIZE + 5);
    expect(fetched).toEqual([]);
  });
});
