import type { RowIndex } from './row-index';

/**
 * A stretch of receive time with no envelope long enough to be idle time (a human thinking
 * before answering a frontend tool, a slow tool): the lanes draw it narrow, with its length.
 */
export interface IdleGap {
  /** Receive times (ms) of the envelopes either side. */
  readonly from: number;
  readonly to: number;
}

/** A gap is idle from this long (ms) on … */
export const IDLE_GAP_MS = 2000;
/** … and when it is at least this share of the whole session's time. */
const IDLE_GAP_SHARE = 0.1;
/** What an idle gap is drawn as: this share of the time that is not idle. */
const IDLE_GAP_SHOWN_SHARE = 0.04;

/**
 * The lanes' x axis over receive time with idle gaps compressed: positions are milliseconds
 * where envelopes arrive and a few percent of the busy time across each idle gap, so a
 * session whose legs wait for a human is not one narrow burst per leg at either end.
 */
export interface LaneScale {
  /** Axis position of a receive time. */
  position(time: number): number;
  /** The receive time at an axis position. */
  time(position: number): number;
  readonly gaps: readonly IdleGap[];
}

interface Segment {
  readonly time: number;
  readonly position: number;
  /** Axis units per ms: 1 where envelopes arrive, less across an idle gap. */
  readonly scale: number;
}

/** The scale of a session's receive times, from `origin` (its start) on; the identity when nothing is idle. */
export function laneScale(index: Pick<RowIndex, 'total' | 'isKnown' | 'receivedAt'>, origin: number): LaneScale {
  const breaks: IdleGap[] = [];
  let last = origin;
  let end = origin;
  const candidates: IdleGap[] = [];
  for (let seq = 0; seq < index.total; seq++) {
    if (!index.isKnown(seq)) continue;
    const at = index.receivedAt(seq);
    if (at - last >= IDLE_GAP_MS) candidates.push({ from: last, to: at });
    // Envelopes arrive in order; a clock that steps back does not open a gap.
    if (at > last) last = at;
    end = Math.max(end, at);
  }
  const whole = end - origin;
  for (const gap of candidates) if (gap.to - gap.from >= whole * IDLE_GAP_SHARE) breaks.push(gap);
  if (breaks.length === 0) return { position: (time) => time, time: (position) => position, gaps: [] };

  const idle = breaks.reduce((sum, gap) => sum + gap.to - gap.from, 0);
  const segments: Segment[] = [];
  let position = origin;
  let time = origin;
  for (const gap of breaks) {
    segments.push({ time, position, scale: 1 });
    position += gap.from - time;
    const length = gap.to - gap.from;
    const shown = Math.min(length, Math.max(1, (whole - idle) * IDLE_GAP_SHOWN_SHARE));
    segments.push({ time: gap.from, position, scale: shown / length });
    position += shown;
    time = gap.to;
  }
  segments.push({ time, position, scale: 1 });
  return {
    position: (t) => {
      const segment = segmentAt(segments, t, (s) => s.time);
      return segment.position + (t - segment.time) * segment.scale;
    },
    time: (p) => {
      const segment = segmentAt(segments, p, (s) => s.position);
      return segment.time + (p - segment.position) / segment.scale;
    },
    gaps: breaks,
  };
}

/** The last segment starting at or before `value` (the first one before them all). */
function segmentAt(segments: readonly Segment[], value: number, key: (segment: Segment) => number): Segment {
  let low = 0;
  let high = segments.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (key(segments[mid] as Segment) <= value) low = mid;
    else high = mid - 1;
  }
  return segments[low] as Segment;
}

/**
 * One lane's marks per pixel column: how many fall in each, and the most important category
 * among them. Where marks overlap (more than one in a column) the lane is drawn as a density
 * strip, each column as high as its share of the busiest one, instead of every column a full
 * tick, which at full zoom on a big session made the lane one solid bar.
 */
export interface LaneColumns {
  readonly counts: Uint32Array;
  /** Category rank per column; -1 where no mark falls. */
  readonly best: Int8Array;
  /** The busiest column's count: 1 means no two marks overlap. */
  readonly max: number;
}

export function laneColumns(columns: number, marks: Iterable<{ x: number; rank: number }>): LaneColumns {
  const counts = new Uint32Array(columns);
  const best = new Int8Array(columns).fill(-1);
  let max = 0;
  for (const { x, rank } of marks) {
    if (x < 0 || x >= columns) continue;
    const count = ++(counts[x] as number);
    if (count > max) max = count;
    if (rank > (best[x] as number)) best[x] = rank;
  }
  return { counts, best, max };
}

/**
 * The height of a column's bar in a lane `full` pixels high: full height while no marks
 * overlap, else on a log scale of its count against the busiest column's (a burst of
 * thousands in one column leaves the columns of a few marks readable), never under 2 px.
 */
export function columnHeight(count: number, max: number, full: number): number {
  if (max <= 1) return full;
  return Math.max(2, Math.round((full * Math.log1p(count)) / Math.log1p(max)));
}
