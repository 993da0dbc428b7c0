import type { RowIndex } from './row-index';

/**
 * What the lanes' x axis measures: receive time, or, for a session whose envelopes all carry
 * the same time (a file without timing: a capture, an envelope file), their order — otherwise
 * every tick would sit at x = 0.
 */
export type LaneAxis = 'time' | 'sequence';

export function laneAxis(index: Pick<RowIndex, 'total' | 'isKnown' | 'receivedAt'>): LaneAxis {
  let first: number | undefined;
  for (let seq = 0; seq < index.total; seq++) {
    if (!index.isKnown(seq)) continue;
    const at = index.receivedAt(seq);
    if (first === undefined) first = at;
    else if (at !== first) return 'time';
  }
  return 'sequence';
}

/**
 * Whether the rows' receive times say anything: a session still arriving has them; an ended
 * one whose envelopes all carry the same time (a capture or an envelope file without receive
 * times, or one network read) has none to show, and its Time and Δ cells say so rather than
 * a 0.000 / +0 the app cannot back. Scans the rows only once the session has ended.
 */
export function sessionIsTimed(index: Pick<RowIndex, 'total' | 'isKnown' | 'receivedAt'>, arriving: boolean): boolean {
  return arriving || index.total < 2 || laneAxis(index) === 'time';
}
