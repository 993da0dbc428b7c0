import type { InspectorService, SessionBatch, TimelineRow } from '../../src-shared/contract';
import { columnRows } from '../../src-shared/contract/row-columns';
import type { ReadableStore } from './types';
import { RowCache } from './row-cache';
import type { Expr } from '../../src-shared/filter/ast';
import { fieldsOf } from '../../src-shared/filter/ast';
import { printExpression } from '../../src-shared/filter/print';
import {
  compileLocalFilter,
  EMPTY_FILTER,
  FilteredRows,
  isLocalFilter,
  parseTimelineFilter,
  type TimelineFilter,
} from './row-filter';
import { RowIndex } from './row-index';
import type { FrameScheduler } from './scheduler';
import { createStore, type Store } from './store';

export interface TimelineSnapshot {
  readonly sessionId: string;
  /** Envelopes in the session. */
  readonly total: number;
  /** Rows the filter lets through (= total without a filter). */
  readonly visibleCount: number;
  /** Bumps whenever rows, the filter or loaded pages change: views re-read rows then. */
  readonly version: number;
  readonly filter: TimelineFilter;
  /** The expression parsed (null when empty or invalid). */
  readonly filterTree: Expr | null;
  /** Why the expression does not parse, and where; the last valid filter stays applied meanwhile. */
  readonly filterError: { readonly message: string; readonly at: number; readonly length: number } | null;
  readonly filterActive: boolean;
  /** The filter is being evaluated in main (it reads fields the renderer does not keep). */
  readonly searching: boolean;
  /** Main capped the matches. */
  readonly searchTruncated: boolean;
  /** Every row's columns are known (filters and lanes are exact). */
  readonly indexComplete: boolean;
}

export interface TimelineDeps {
  readonly service: Pick<InspectorService, 'getRows' | 'filterRows'>;
  readonly scheduler: FrameScheduler;
  readonly reportError: (context: string, error: unknown) => void;
  readonly maxCachedPages?: number;
}

/** Rows fetched per backfill call (rows missed before this window attached, e.g. after a reload). */
export const BACKFILL_ROWS = 10_000;
/** While rows keep arriving, a filter evaluated in main is re-run at most this often. */
export const SEARCH_REFRESH_MS = 750;
export const SEARCH_MAX_MATCHES = 1_000_000;

/**
 * One session's timeline: every row's compact columns, the full rows of recently seen pages,
 * and the rows the current filter lets through, updated incrementally as batches arrive.
 */
export class TimelineModel implements ReadableStore<TimelineSnapshot> {
  /** Replaced (never cleared) when the session starts over, so views re-read it from here. */
  index = new RowIndex();
  private cache: RowCache;
  private filtered = new FilteredRows();
  private filter: TimelineFilter = EMPTY_FILTER;
  /** The filter applied: the last expression that parsed. */
  private tree: Expr | null = null;
  private filterError: TimelineSnapshot['filterError'] = null;
  private agentNames: ReadonlyMap<string, string> = new Map();
  /** For a filter evaluated in main: the seqs it matched. */
  private remoteMatches: Set<number> | null = null;
  private searchGeneration = 0;
  private searchTruncated = false;
  private searching = false;
  private searchRefresh: (() => void) | null = null;
  private backfilling = false;
  private backfillCursor = 0;
  /** Where the first batch this window saw started: rows before it were missed, rows after come in batches. */
  private firstBatchStart: number | null = null;
  private version = 0;
  /** Counts `reset`s, so answers to requests made before one are dropped. */
  private resets = 0;
  private readonly store: Store<TimelineSnapshot>;

  constructor(
    readonly sessionId: string,
    private readonly deps: TimelineDeps,
  ) {
    this.cache = this.createCache();
    this.store = createStore<TimelineSnapshot>(this.snapshot());
  }

  readonly getSnapshot = (): TimelineSnapshot => this.store.getSnapshot();
  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /**
   * A batch: new rows continuing the timeline at `start` (all in compact columns, some also
   * in full), rows that changed, and the session's total.
   */
  applyBatch({
    start,
    columns,
    rows,
    changed,
    total,
  }: Pick<SessionBatch, 'start' | 'columns' | 'rows' | 'changed' | 'total'>): void {
    const added = columnRows(columns);
    if (this.firstBatchStart === null && added > 0) this.firstBatchStart = start;
    this.index.setTotal(total);
    this.index.setColumns(start, columns);
    for (const row of rows) this.cache.put(row);
    for (const row of changed) {
      this.index.set(row);
      this.cache.put(row);
    }
    if (this.tree) {
      if (this.isRemote()) {
        // New rows, or changed badges and blocks, can move rows in or out: ask main again.
        if (added > 0 || changed.length > 0) this.scheduleSearchRefresh();
      } else {
        this.filtered.extend(this.index.total, this.matcher());
      }
    }
    this.changed();
  }

  /**
   * The session started over from empty in main (a replay seeking backwards): every row this
   * window knows is gone; rows of the new start arrive in batches from seq 0. The filter stays.
   */
  reset(): void {
    this.index = new RowIndex();
    this.cache = this.createCache();
    this.filtered = new FilteredRows();
    this.firstBatchStart = null;
    this.backfillCursor = 0;
    // A backfill or search in flight answers for the old rows: drop what it brings.
    this.resets++;
    this.backfilling = false;
    if (this.isRemote()) {
      this.remoteMatches = new Set();
      this.runSearch();
    }
    this.changed();
  }

  /** Main reported more envelopes than batches brought (a window attached late): rows load by page. */
  growTo(total: number): void {
    if (total <= this.index.total) return;
    this.index.setTotal(total);
    this.changed();
  }

  setFilter(filter: TimelineFilter): void {
    this.filter = filter;
    const parsed = parseTimelineFilter(filter);
    this.filterError = parsed.error
      ? { message: parsed.error.message, at: parsed.error.at, length: parsed.error.length }
      : null;
    // An invalid expression keeps the last valid filter applied while the user edits it.
    if (!parsed.error) {
      this.tree = parsed.tree;
      this.remoteMatches = null;
      this.searchTruncated = false;
      this.searchGeneration++;
      this.searching = false;
      if (this.isRemote()) this.runSearch();
      if (this.tree) {
        this.rebuildFiltered();
        this.backfill();
      }
    }
    this.changed();
  }

  /** Agent names as shown (uuid → "main", "sub 1"), for filters on `agent`. */
  setAgentNames(names: ReadonlyMap<string, string>): void {
    if (sameMap(names, this.agentNames)) return;
    this.agentNames = names;
    if (!this.tree || !fieldsOf(this.tree).has('agent')) return;
    if (this.isRemote()) this.runSearch();
    else this.rebuildFiltered();
    this.changed();
  }

  getFilter(): TimelineFilter {
    return this.filter;
  }

  /** The seq shown at a position of the (filtered) list. */
  seqAt(position: number): number | undefined {
    if (!this.filterActive()) return position < this.index.total ? position : undefined;
    return this.filtered.seqAt(position);
  }

  /** The position of a seq in the list, or -1 when the filter hides it. */
  positionOf(seq: number): number {
    if (!this.filterActive()) return seq < this.index.total ? seq : -1;
    return this.filtered.positionOf(seq);
  }

  /** The full row when it is loaded; call `ensurePositions` or `ensureRow` for the ones that are not. */
  getRow(seq: number): TimelineRow | undefined {
    return this.cache.get(seq);
  }

  /** Loads the rows at these list positions (the visible window) if they are not cached. */
  ensurePositions(from: number, to: number): void {
    const seqs: number[] = [];
    for (let position = Math.max(0, from); position < to; position++) {
      const seq = this.seqAt(position);
      if (seq !== undefined) seqs.push(seq);
    }
    this.cache.ensure(seqs, this.index.total);
  }

  /** Loads one row if it is not cached (a row selected from another view). */
  ensureRow(seq: number): void {
    this.cache.ensure([seq], this.index.total);
  }

  /**
   * Fills the index with the rows this window missed before its first batch (lanes and filters
   * need all of them); rows after it arrive in batches.
   */
  backfill(): void {
    if (this.backfilling || this.index.complete) return;
    // Rows never become unknown again, so the scan resumes where the last one stopped.
    const [range] = this.index.missingRanges(1, this.backfillCursor);
    if (!range) return;
    const [start, rangeEnd] = range;
    const end = this.firstBatchStart === null ? rangeEnd : Math.min(rangeEnd, this.firstBatchStart);
    if (end <= start) return;
    this.backfillCursor = start;
    this.backfilling = true;
    const count = Math.min(BACKFILL_ROWS, end - start);
    const resets = this.resets;
    this.deps.service.getRows({ sessionId: this.sessionId, start, count }).then(
      (page) => {
        if (resets !== this.resets) return;
        this.backfilling = false;
        let added = 0;
        for (const row of page.rows) {
          if (this.index.isKnown(row.seq)) continue;
          this.index.set(row);
          added++;
        }
        if (page.total > this.index.total) this.index.setTotal(page.total);
        if (this.filterActive()) this.rebuildFiltered();
        this.changed();
        // Stop on an empty page instead of asking again for rows main does not have.
        if (added > 0) this.backfill();
      },
      (error: unknown) => {
        if (resets !== this.resets) return;
        this.backfilling = false;
        this.deps.reportError('Load rows', error);
      },
    );
  }

  dispose(): void {
    this.searchRefresh?.();
    this.searchGeneration++;
  }

  private createCache(): RowCache {
    const resets = this.resets;
    return new RowCache(
      (start, count) => this.deps.service.getRows({ sessionId: this.sessionId, start, count }),
      () => {
        if (resets === this.resets) this.changed();
      },
      (error) => this.deps.reportError('Load rows', error),
      this.deps.maxCachedPages,
    );
  }

  private filterActive(): boolean {
    return this.tree !== null;
  }

  private isRemote(): boolean {
    return this.tree !== null && !isLocalFilter(this.tree);
  }

  private matcher(): (seq: number) => boolean {
    if (!this.tree) return () => true;
    if (!this.isRemote()) return compileLocalFilter(this.tree, this.index, this.agentNames);
    const matches = this.remoteMatches;
    return (seq) => matches?.has(seq) ?? false;
  }

  private rebuildFiltered(): void {
    this.filtered.rebuild(this.index.total, this.matcher());
  }

  private runSearch(): void {
    if (!this.tree) return;
    const generation = ++this.searchGeneration;
    // The applied tree, not the box's text: that may be an unfinished edit that does not parse.
    const expression = printExpression(this.tree);
    this.searching = true;
    this.deps.service.filterRows({ sessionId: this.sessionId, expression, max: SEARCH_MAX_MATCHES }).then(
      (result) => {
        if (generation !== this.searchGeneration) return;
        this.searching = false;
        this.remoteMatches = new Set(result.seqs);
        this.searchTruncated = result.truncated;
        this.rebuildFiltered();
        this.changed();
      },
      (error: unknown) => {
        if (generation !== this.searchGeneration) return;
        this.searching = false;
        this.deps.reportError('Search', error);
        this.changed();
      },
    );
  }

  private scheduleSearchRefresh(): void {
    if (this.searchRefresh) return;
    this.searchRefresh = this.deps.scheduler.after(SEARCH_REFRESH_MS, () => {
      this.searchRefresh = null;
      if (this.isRemote()) this.runSearch();
    });
  }

  private changed(): void {
    this.version++;
    this.store.set(this.snapshot());
  }

  private snapshot(): TimelineSnapshot {
    const filterActive = this.filterActive();
    return {
      sessionId: this.sessionId,
      total: this.index.total,
      visibleCount: filterActive ? this.filtered.length : this.index.total,
      version: this.version,
      filter: this.filter,
      filterTree: this.tree,
      filterError: this.filterError,
      filterActive,
      searching: this.searching,
      searchTruncated: this.searchTruncated,
      indexComplete: this.index.complete,
    };
  }
}

function sameMap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}
