import type { TimelineRow } from '../../src-shared/contract';
import type { AgentLabel } from './agents';
import type { RowIndex } from './row-index';
import { rowCells, type RowCells } from './row-view';

/** One row of the table's window: its place in the (filtered) list, its seq, and its cells once loaded. */
export interface WindowRow {
  readonly position: number;
  readonly seq: number;
  readonly cells: RowCells | null;
  /** The first row of a continuation leg (the run continued after its pause). */
  readonly legStart: boolean;
  /** What the cells were made from: an equal source makes equal cells. */
  readonly source: TimelineRow | undefined;
  readonly previousReceivedAt: number | undefined;
  readonly context: WindowContext;
}

/** What every row's cells depend on besides the row (one object per change, compared by identity). */
export interface WindowContext {
  readonly sessionStart: number;
  readonly labels: ReadonlyMap<string, AgentLabel>;
  /** The session carries receive times (model/lane-axis.ts, `sessionIsTimed`). */
  readonly timed: boolean;
}

/** What the window reads of a timeline. */
export interface WindowSource {
  seqAt(position: number): number | undefined;
  getRow(seq: number): TimelineRow | undefined;
  readonly index: Pick<RowIndex, 'isKnown' | 'receivedAt'>;
}

/**
 * The rows at list positions [first, last], reusing the objects of `previous` whose source did
 * not change — and `previous` itself when no row did. A batch that leaves the window as it was
 * (a file loading while its first rows are on view) then re-renders no row: the table's row
 * model and the memoised row views see the same objects.
 */
export function windowRows(
  previous: readonly WindowRow[],
  first: number,
  last: number,
  source: WindowSource,
  context: WindowContext,
): readonly WindowRow[] {
  const rows: WindowRow[] = [];
  const offset = previous[0]?.position ?? 0;
  let reused = 0;
  for (let position = first; position <= last; position++) {
    const seq = source.seqAt(position);
    if (seq === undefined) continue;
    const row = source.getRow(seq);
    const previousReceivedAt = seq > 0 && source.index.isKnown(seq - 1) ? source.index.receivedAt(seq - 1) : undefined;
    const before = seq > 0 ? source.getRow(seq - 1) : undefined;
    const legStart = row !== undefined && row.leg > 0 && before !== undefined && before.leg !== row.leg;
    const old = previous[position - offset];
    if (
      old &&
      old.position === position &&
      old.seq === seq &&
      old.source === row &&
      old.previousReceivedAt === previousReceivedAt &&
      old.legStart === legStart &&
      old.context === context
    ) {
      if (old === previous[rows.length]) reused++;
      rows.push(old);
      continue;
    }
    rows.push({
      position,
      seq,
      cells: row ? rowCells(row, { ...context, previousReceivedAt }) : null,
      legStart,
      source: row,
      previousReceivedAt,
      context,
    });
  }
  return reused === rows.length && rows.length === previous.length ? previous : rows;
}
