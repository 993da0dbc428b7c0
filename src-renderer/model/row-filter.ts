import { SEVERITY_RANK } from '../../src-shared/contract/row-columns';
import type { RowIndex, SeverityName } from './row-index';

/** What the timeline shows. The empty filter shows every row. */
export interface TimelineFilter {
  /** Agent uuids to show; empty = all. */
  readonly agents: readonly string[];
  /** Envelope types to show; empty = all. */
  readonly types: readonly string[];
  readonly final: 'any' | 'final' | 'not-final';
  /** Only rows with a finding of at least this severity; null = any row. */
  readonly minSeverity: SeverityName | null;
  /** Free text (matched in main by searchRows: delta, type, agent, id, name). */
  readonly text: string;
  /** Segment types of text blocks (docs/inline.md): rows whose delta carries part of one (matched in main). */
  readonly segments: readonly string[];
}

export const EMPTY_FILTER: TimelineFilter = { agents: [], types: [], final: 'any', minSeverity: null, text: '', segments: [] };

export function isEmptyFilter(filter: TimelineFilter): boolean {
  return (
    filter.agents.length === 0 &&
    filter.types.length === 0 &&
    filter.final === 'any' &&
    filter.minSeverity === null &&
    filter.text.trim() === '' &&
    filter.segments.length === 0
  );
}

/** The facets main matches (searchRows): the text and the segment types. */
export function hasMainFilter(filter: TimelineFilter): boolean {
  return filter.text.trim() !== '' || filter.segments.length > 0;
}

/** Equal keys: the same search in main. */
export function mainFilterKey(filter: TimelineFilter): string {
  return JSON.stringify([filter.text.trim(), [...filter.segments].sort()]);
}

/** How many filter facets are active (for the "Filters (2)" badge). */
export function activeFilterCount(filter: TimelineFilter): number {
  return (
    (filter.agents.length > 0 ? 1 : 0) +
    (filter.types.length > 0 ? 1 : 0) +
    (filter.final !== 'any' ? 1 : 0) +
    (filter.minSeverity !== null ? 1 : 0) +
    (filter.text.trim() !== '' ? 1 : 0) +
    (filter.segments.length > 0 ? 1 : 0)
  );
}

/**
 * A row predicate compiled against one index: agent and type names become interned ids, so
 * testing a row is a few array reads. `textMatches` is the set of seqs main found for the text
 * and segment types.
 */
export function compileFilter(
  filter: TimelineFilter,
  index: RowIndex,
  textMatches: ReadonlySet<number> | null,
): (seq: number) => boolean {
  const agentIds = idSet(filter.agents, (a) => index.agentIdOf(a));
  const typeIds = idSet(filter.types, (t) => index.typeIdOf(t));
  const minRank = filter.minSeverity ? SEVERITY_RANK[filter.minSeverity] : 0;
  const text = hasMainFilter(filter);
  return (seq) => {
    if (!index.isKnown(seq)) return false;
    if (agentIds && !agentIds.has(index.agentId(seq))) return false;
    if (typeIds && !typeIds.has(index.typeId(seq))) return false;
    if (filter.final === 'final' && !index.isFinal(seq)) return false;
    if (filter.final === 'not-final' && index.isFinal(seq)) return false;
    if (minRank > 0 && index.severityRank(seq) < minRank) return false;
    if (text && !(textMatches?.has(seq) ?? false)) return false;
    return true;
  };
}

function idSet(names: readonly string[], idOf: (name: string) => number | undefined): Set<number> | null {
  if (names.length === 0) return null;
  const ids = new Set<number>();
  for (const name of names) {
    const id = idOf(name);
    // A name the index has not seen yet matches nothing for now; -1 keeps the set non-empty.
    ids.add(id ?? -1);
  }
  return ids;
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
