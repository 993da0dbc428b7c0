import { describe, expect, it } from 'vitest';
import { MAX_BODY_PX, rowWindow, scrollTopFor } from './row-window';

const base = { rowHeight: 20, headerHeight: 20, clientHeight: 220, overscan: 2, following: false };

describe('row window', () => {
  it('lays rows out at their natural offsets while the body fits', () => {
    const w = rowWindow({ ...base, count: 1000, scrollTop: 400 });
    // 200 px of rows: rows 20..29 visible, two more each side.
    expect([w.first, w.end]).toEqual([18, 33]);
    expect(w.bodyHeight).toBe(20_000);
    expect(w.top(20)).toBe(400);
    expect(w.top(0)).toBe(0);
  });

  it('renders the newest rows while following, at the end of the body', () => {
    const w = rowWindow({ ...base, count: 1000, scrollTop: 0, following: true });
    expect(w.end).toBe(1000);
    expect(w.first).toBe(1000 - 11 - 2);
    expect(w.top(999)).toBe(w.bodyHeight - 20);
  });

  it('maps the scroll range onto every row proportionally past the largest body, in constant time', () => {
    const count = 3_000_000;
    const end = rowWindow({ ...base, count, scrollTop: Number.MAX_SAFE_INTEGER });
    expect(end.bodyHeight).toBe(MAX_BODY_PX);
    expect(end.end).toBe(count);
    expect(end.top(count - 1)).toBe(MAX_BODY_PX - 20);
    const middle = rowWindow({ ...base, count, scrollTop: (MAX_BODY_PX + 20 - 220) / 2 });
    expect(Math.abs(middle.first + 2 - (count - 10) / 2)).toBeLessThan(2);
    // The rendered rows sit in the viewport: the first visible one at the scroll offset.
    const firstVisible = middle.first + 2;
    expect(Math.abs(middle.top(firstVisible) - (MAX_BODY_PX + 20 - 220) / 2)).toBeLessThan(20);
  });

  it('scrolls to a row centred, or only as far as needed', () => {
    const input = { ...base, count: 1000, scrollTop: 400 };
    expect(scrollTopFor(input, 25, 'nearest')).toBeNull();
    expect(scrollTopFor(input, 10, 'nearest')).toBe(200);
    expect(scrollTopFor(input, 40, 'nearest')).toBe(41 * 20 - 200);
    expect(scrollTopFor(input, 500, 'center')).toBe(500 * 20 + 10 - 100);
    expect(scrollTopFor(input, 0, 'center')).toBe(0);
    // Past the largest body: the last row is at the end of the scroll range.
    const huge = { ...base, count: 3_000_000, scrollTop: 0 };
    expect(scrollTopFor(huge, 2_999_999, 'nearest')).toBe(MAX_BODY_PX + 20 - 220);
  });
});
