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
