import { describe, expect, it } from 'vitest';
import { followRange } from './follow-range';

describe('followRange', () => {
  it('renders the newest rows, a viewport of them and the overscan above, wherever the last scroll offset was', () => {
    // The virtualizer's range still sits at the old bottom (rows 100..139) when 330 rows arrive.
    expect(followRange({ startIndex: 100, endIndex: 139, count: 470 }, 4)).toEqual(Array.from({ length: 44 }, (_, i) => 426 + i));
  });

  it('starts at row 0 when the session is shorter than the viewport', () => {
    expect(followRange({ startIndex: 0, endIndex: 5, count: 6 }, 4)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('renders nothing for an empty session', () => {
    expect(followRange({ startIndex: 0, endIndex: -1, count: 0 }, 4)).toEqual([]);
  });
});
