/**
 * Which rows a fixed-height table renders and where, in constant time whatever the number of
 * rows: a virtualizer that lays out every row again when the count changes does O(rows) work
 * per batch, which a stream of millions of envelopes turns into long tasks. Past
 * `MAX_BODY_PX` the body stops growing (browsers cap an element's height near 33.5 million
 * pixels, about 1.5 million rows) and the scroll position maps to rows proportionally.
 *
 * Body coordinates: y = 0 is the top of the first row; the sticky header covers the top
 * `headerHeight` pixels of the viewport, so the body shows y ∈ [scrollTop, scrollTop + view).
 */

export const MAX_BODY_PX = 8_000_000;

export interface RowWindowInput {
  readonly count: number;
  readonly rowHeight: number;
  readonly headerHeight: number;
  readonly scrollTop: number;
  readonly clientHeight: number;
  /** Rows rendered beyond the viewport on each side. */
  readonly overscan: number;
  /** The table sticks to the newest rows: the window ends at the last row, whatever the scroll offset says yet. */
  readonly following: boolean;
  readonly maxBody?: number;
}

export interface RowWindow {
  /** First row rendered. */
  readonly first: number;
  /** One past the last row rendered. */
  readonly end: number;
  readonly bodyHeight: number;
  /** A rendered row's top in body coordinates. */
  top(position: number): number;
}

interface Geometry {
  readonly body: number;
  /** Height of the rows' part of the viewport. */
  readonly view: number;
  readonly maxScroll: number;
  /** The (fractional) first visible row at the end of the scroll range. */
  readonly maxFirst: number;
  /** Pixels of scroll per row: the row height until the body is capped. */
  readonly perRow: number;
}

function geometry(input: Omit<RowWindowInput, 'scrollTop' | 'overscan' | 'following'>): Geometry {
  const body = Math.min(input.count * input.rowHeight, input.maxBody ?? MAX_BODY_PX);
  const view = Math.max(input.rowHeight, input.clientHeight - input.headerHeight);
  const maxScroll = Math.max(0, input.headerHeight + body - input.clientHeight);
  const maxFirst = Math.max(0, input.count - view / input.rowHeight);
  const capped = body < input.count * input.rowHeight;
  return { body, view, maxScroll, maxFirst, perRow: capped && maxFirst > 0 ? maxScroll / maxFirst : input.rowHeight };
}

/** The (fractional) row at the top of the viewport for a scroll offset. */
function firstAt(g: Geometry, scrollTop: number): number {
  return Math.min(Math.max(0, scrollTop), g.maxScroll) / g.perRow;
}

export function rowWindow(input: RowWindowInput): RowWindow {
  const g = geometry(input);
  const { count, rowHeight } = input;
  const anchor = input.following ? g.maxScroll : Math.min(Math.max(0, input.scrollTop), g.maxScroll);
  const first = input.following ? g.maxFirst : firstAt(g, input.scrollTop);
  const visible = Math.ceil(g.view / rowHeight) + 1;
  const from = Math.max(0, Math.floor(first) - input.overscan);
  return {
    first: input.following ? Math.max(0, count - visible - input.overscan) : from,
    end: input.following ? count : Math.min(count, Math.ceil(first) + visible + input.overscan),
    bodyHeight: g.body,
    top: (position) => anchor + (position - first) * rowHeight,
  };
}

/**
 * The scroll offset that shows `position`: centred, or (`nearest`) moved only as far as needed
 * to bring it into view; null when it is in view already.
 */
export function scrollTopFor(
  input: Omit<RowWindowInput, 'overscan' | 'following'>,
  position: number,
  align: 'center' | 'nearest',
): number | null {
  const g = geometry(input);
  const rows = g.view / input.rowHeight;
  const current = firstAt(g, input.scrollTop);
  let first: number;
  if (align === 'center') first = position + 0.5 - rows / 2;
  else if (position < current) first = position;
  else if (position + 1 > current + rows) first = position + 1 - rows;
  else return null;
  return Math.min(Math.max(0, first), g.maxFirst) * g.perRow;
}
