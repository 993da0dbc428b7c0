import { fieldsOf, type Expr } from '../../src-shared/filter/ast';
import { ENVELOPE_FIELDS, FilterError, parseFilter } from '../../src-shared/filter';
import { compileFilter, type SubjectReader } from '../../src-shared/filter/evaluate';
import type { FieldSpec } from '../../src-shared/filter/fields';
import type { RowIndex } from './row-index';

/** What the timeline shows: a filter expression (docs/filters.md); '' shows every row. */
export interface TimelineFilter {
  readonly expression: string;
}

export const EMPTY_FILTER: TimelineFilter = { expression: '' };

export function isEmptyFilter(filter: TimelineFilter): boolean {
  return filter.expression.trim() === '';
}

export type ParsedFilter =
  { readonly tree: Expr; readonly error: null } | { readonly tree: null; readonly error: FilterError | null };

/** The filter's tree, or its syntax error (with the character it is at); both null when empty. */
export function parseTimelineFilter(filter: TimelineFilter): ParsedFilter {
  if (isEmptyFilter(filter)) return { tree: null, error: null };
  try {
    return { tree: parseFilter(filter.expression), error: null };
  } catch (error) {
    if (error instanceof FilterError) return { tree: null, error };
    throw error;
  }
}

/** Fields the renderer's column store knows for every row: filters on only these run here, at once. */
const LOCAL_FIELDS = new Set(['type', 'agent', 'final']);

export function isLocalFilter(tree: Expr): boolean {
  return [...fieldsOf(tree)].every((field) => LOCAL_FIELDS.has(field));
}

/**
 * A row predicate over the column store, for filters that read only `type`, `agent` (name as
 * shown, or uuid) and `final`; other filters run in main (filterRows), which has every field.
 */
export function compileLocalFilter(
  tree: Expr,
  index: RowIndex,
  agentNames: ReadonlyMap<string, string>,
): (seq: number) => boolean {
  // The spec alone: how the envelope table reads its fields is not how rows are read.
  const spec = (name: string): FieldSpec => ENVELOPE_FIELDS.field(name)!;
  const reader: SubjectReader<number> = {
    field(name) {
      switch (name) {
        case 'type':
          return { ...spec(name), get: (seq: number) => index.typeOf(seq) };
        case 'agent':
          return {
            ...spec(name),
            get: (seq: number) => {
              const uuid = index.agentOf(seq);
              return uuid === undefined ? undefined : [agentNames.get(uuid) ?? uuid, uuid];
            },
          };
        case 'final':
          return { ...spec(name), get: (seq: number) => index.isFinal(seq) };
        default:
          return undefined;
      }
    },
  };
  const match = compileFilter(tree, reader);
  return (seq) => index.isKnown(seq) && match(seq);
}

/**
 * The rows a filter lets through, kept up to date as rows arrive: appended rows are tested
 * once (`extend`), a change that can move earlier rows in or out calls `rebuild`.
 */
export class FilteredRows {
  private seqs = new Int32Array(1024);
  private count = 0;
  /** Rows [0, scanned) have been tested. */
  private scanned = 0;

  get length(): number {
    return this.count;
  }

  seqAt(position: number): number | undefined {
    return position < this.count ? this.seqs[position] : undefined;
  }

  /** Position of `seq` in the filtered list, or -1 (binary search: seqs are ascending). */
  positionOf(seq: number): number {
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = this.seqs[mid]!;
      if (value === seq) return mid;
      if (value < seq) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** Position of the first row at or after `seq` (for keeping the focus when the filter changes). */
  nearestPosition(seq: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.seqs[mid]! < seq) low = mid + 1;
      else high = mid;
    }
    return Math.min(low, Math.max(0, this.count - 1));
  }

  rebuild(total: number, matches: (seq: number) => boolean): void {
    this.count = 0;
    this.scanned = 0;
    this.extend(total, matches);
  }

  extend(total: number, matches: (seq: number) => boolean): void {
    for (let seq = this.scanned; seq < total; seq++) {
      if (!matches(seq)) continue;
      if (this.count === this.seqs.length) {
        const bigger = new Int32Array(this.seqs.length * 2);
        bigger.set(this.seqs);
        this.seqs = bigger;
      }
      this.seqs[this.count++] = seq;
    }
    this.scanned = Math.max(this.scanned, total);
  }
}
