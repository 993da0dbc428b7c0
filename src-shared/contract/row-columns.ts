import { SEVERITY_RANK } from '../diagnostics/severity';
import type { Severity } from '../diagnostics/severity';
import type { TimelineRow } from './payloads';

/**
 * The compact form of timeline rows in a batch: what the renderer's row index keeps of every
 * envelope (receive time, agent, type, flags), without previews, ids and names. A batch
 * carries every new row this way and the full rows only of the few a table can show at once
 * (the session's first rows, a batch's newest); the others load by page when scrolled to.
 * Opening a large file then moves a few bytes per envelope to the renderer instead of a few
 * hundred.
 */

/** One entry per row in each column; `agent` and `type` index `strings`. */
export interface RowColumns {
  strings: string[];
  receivedAt: number[];
  agent: number[];
  type: number[];
  flags: number[];
}

/** Bits of `RowColumns.flags`. */
export const ROW_FLAG = {
  final: 1,
  control: 2,
  hasFindings: 4,
  /** Two bits from here: 0 none, 1 info, 2 warning, 3 error. */
  severityShift: 3,
} as const;

/** The flags of one row. */
export function rowFlags(row: Pick<TimelineRow, 'final' | 'control' | 'diagnostics' | 'severity'>): number {
  return flagsOf(row.final, row.control !== undefined, row.diagnostics, row.severity);
}

/** The flags of a row from its parts (a session's store has them without a row object). */
export function flagsOf(final: boolean, control: boolean, diagnostics: number, severity: Severity | undefined): number {
  return (
    (final ? ROW_FLAG.final : 0) |
    (control ? ROW_FLAG.control : 0) |
    (diagnostics > 0 ? ROW_FLAG.hasFindings : 0) |
    ((severity ? SEVERITY_RANK[severity] + 1 : 0) << ROW_FLAG.severityShift)
  );
}

/** Builds the columns of consecutive rows, interning agents and types into `strings`. */
export class RowColumnsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly columns: RowColumns = { strings: [], receivedAt: [], agent: [], type: [], flags: [] };

  add(
    row: Pick<TimelineRow, 'receivedAt' | 'agent' | 'type' | 'final' | 'control' | 'diagnostics' | 'severity'>,
  ): void {
    this.push(row.receivedAt, row.agent, row.type, rowFlags(row));
  }

  /** A row from its parts (`flags`: see flagsOf). */
  push(receivedAt: number, agent: string, type: string, flags: number): void {
    this.columns.receivedAt.push(receivedAt);
    this.columns.agent.push(this.intern(agent));
    this.columns.type.push(this.intern(type));
    this.columns.flags.push(flags);
  }

  build(): RowColumns {
    return this.columns;
  }

  private intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.columns.strings.length;
      this.ids.set(value, id);
      this.columns.strings.push(value);
    }
    return id;
  }
}

/** The number of rows the columns hold. */
export function columnRows(columns: RowColumns): number {
  return columns.receivedAt.length;
}

/** Why columns cannot be read: lengths that differ or string indexes out of range (null: fine). */
export function columnsProblem(columns: RowColumns): string | null {
  const n = columns.receivedAt.length;
  if (columns.agent.length !== n || columns.type.length !== n || columns.flags.length !== n) {
    return `columns of different lengths (receivedAt ${n}, agent ${columns.agent.length}, type ${columns.type.length}, flags ${columns.flags.length})`;
  }
  const strings = columns.strings.length;
  for (let i = 0; i < n; i++) {
    const outside =
      columns.agent[i]! >= strings ? columns.agent[i] : columns.type[i]! >= strings ? columns.type[i] : undefined;
    if (outside !== undefined) return `row ${i}: string index ${outside} is outside the ${strings} strings`;
  }
  return null;
}
