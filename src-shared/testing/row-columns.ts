import type { RowColumns } from '../contract/row-columns';

/** One row as the columns give it. */
export interface ColumnRow {
  seq: number;
  receivedAt: number;
  agent: string;
  type: string;
  flags: number;
}

/** The rows of columns starting at `start`, as objects a test can compare (the renderer reads the columns directly). */
export function expandColumns(start: number, columns: RowColumns): ColumnRow[] {
  return columns.receivedAt.map((receivedAt, i) => ({
    seq: start + i,
    receivedAt,
    agent: columns.strings[columns.agent[i]!] ?? '',
    type: columns.strings[columns.type[i]!] ?? '',
    flags: columns.flags[i]!,
  }));
}
