import type { RowsPage, TimelineRow } from '../../src-shared/contract';

export const PAGE_SIZE = 256;
export const DEFAULT_MAX_PAGES = 512; // 131,072 rows

/**
 * Full timeline rows in pages, least recently used evicted: rows pushed in batches fill it,
 * rows scrolled to after eviction (or never pushed, e.g. after a reload) are fetched by page
 * with `getRows`. One request per page at a time.
 */
export class RowCache {
  private readonly pages = new Map<number, (TimelineRow | undefined)[]>();
  private readonly inFlight = new Set<number>();

  constructor(
    private readonly fetchRows: (start: number, count: number) => Promise<RowsPage>,
    private readonly onLoaded: () => void,
    private readonly onError: (error: unknown) => void,
    private readonly maxPages = DEFAULT_MAX_PAGES,
  ) {}

  get(seq: number): TimelineRow | undefined {
    const page = this.pages.get(Math.floor(seq / PAGE_SIZE));
    return page?.[seq % PAGE_SIZE];
  }

  /** Stores a row from a batch (always newer than what the cache holds). */
  put(row: TimelineRow): void {
    const pageIndex = Math.floor(row.seq / PAGE_SIZE);
    let page = this.pages.get(pageIndex);
    if (!page) {
      page = [];
      this.pages.set(pageIndex, page);
      this.evict();
    }
    page[row.seq % PAGE_SIZE] = row;
  }

  /** Fetches the pages holding rows of `seqs` that are missing; `onLoaded` runs when they arrive. */
  ensure(seqs: Iterable<number>, total: number): void {
    const wanted = new Set<number>();
    for (const seq of seqs) {
      if (seq >= total) continue;
      const pageIndex = Math.floor(seq / PAGE_SIZE);
      const page = this.pages.get(pageIndex);
      if (page) {
        this.touch(pageIndex, page);
        if (page[seq % PAGE_SIZE]) continue;
      }
      wanted.add(pageIndex);
    }
    for (const pageIndex of wanted) this.load(pageIndex, total);
  }

  get pageCount(): number {
    return this.pages.size;
  }

  private load(pageIndex: number, total: number): void {
    if (this.inFlight.has(pageIndex)) return;
    this.inFlight.add(pageIndex);
    const start = pageIndex * PAGE_SIZE;
    this.fetchRows(start, Math.min(PAGE_SIZE, total - start)).then(
      (result) => {
        this.inFlight.delete(pageIndex);
        // A row already present came from a batch at least as new as this page: keep it.
        for (const row of result.rows) if (!this.get(row.seq)) this.put(row);
        this.onLoaded();
      },
      (error: unknown) => {
        this.inFlight.delete(pageIndex);
        this.onError(error);
      },
    );
  }

  private touch(pageIndex: number, page: (TimelineRow | undefined)[]): void {
    // Map iteration order is insertion order: re-inserting marks the page most recently used.
    this.pages.delete(pageIndex);
    this.pages.set(pageIndex, page);
  }

  private evict(): void {
    while (this.pages.size > this.maxPages) {
      const oldest = this.pages.keys().next().value;
      if (oldest === undefined) return;
      this.pages.delete(oldest);
    }
  }
}
