import type { TimelineRow } from '../../../../src-shared/contract/payloads';
import { flagsOf, RowColumnsBuilder, type RowColumns } from '../../../../src-shared/contract/row-columns';
import type { EnvelopeTable } from './envelope-table';
import type { FindingBadges } from './finding-badges';
import { toRow, type Badge } from './session-summary';

/**
 * Batches carry the full rows of the session's first rows and, for sessions that stream (a
 * live source, a replay), of each batch's newest rows: a screenful of a table at the top or
 * following the stream (more than a 4K screen's worth). A file's table stays at the top while
 * it loads; rows below load by page when scrolled to.
 */
export const FULL_HEAD_ROWS = 256;
export const FULL_TAIL_ROWS = 128;

/** A session's timeline rows, read from the envelope table and the findings' badges. */
export class SessionRows {
  constructor(
    private readonly envelopes: EnvelopeTable,
    private readonly findings: FindingBadges,
  ) {}

  private badgeOf(seq: number): Badge | undefined {
    return this.findings.badgeOf(seq, this.envelopes.leg(seq), this.envelopes.frame(seq));
  }

  row(seq: number): TimelineRow | undefined {
    const envelope = this.envelopes.get(seq);
    if (!envelope) return undefined;
    const block = this.envelopes.block(seq);
    return toRow(envelope, envelope.byteEnd - envelope.byteStart, block < 0 ? undefined : block, this.badgeOf(seq));
  }

  rows(start: number, count: number): TimelineRow[] {
    const out: TimelineRow[] = [];
    const end = Math.min(this.envelopes.count, start + count);
    for (let seq = start; seq < end; seq++) out.push(this.row(seq) as TimelineRow);
    return out;
  }

  /** Rows [start, end) in compact columns, without materialising envelopes. */
  columns(start: number, end: number): RowColumns {
    const builder = new RowColumnsBuilder();
    const { envelopes } = this;
    for (let seq = start; seq < end; seq++) {
      const badge = this.badgeOf(seq);
      builder.push(
        envelopes.receivedAt(seq),
        envelopes.agent(seq),
        envelopes.type(seq),
        flagsOf(envelopes.final(seq), envelopes.control(seq) !== undefined, badge?.count ?? 0, badge?.severity),
      );
    }
    return builder.build();
  }

  /**
   * The full rows a batch of rows [start, end) carries: what a table shows before it could
   * fetch a page, the session's first rows and (`follows`: a streaming session) the batch's newest.
   */
  batchRows(start: number, end: number, follows: boolean): TimelineRow[] {
    const head = Math.min(end, FULL_HEAD_ROWS);
    const rows = start < head ? this.rows(start, head - start) : [];
    const tail = follows ? Math.max(head, start, end - FULL_TAIL_ROWS) : end;
    rows.push(...this.rows(tail, end - tail));
    return rows;
  }
}
