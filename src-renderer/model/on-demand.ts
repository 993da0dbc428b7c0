import type { FrameScheduler } from './scheduler';

/**
 * Keeps one part of a session (its block summaries, its findings) current while some view
 * shows it, and only then: batches say how far main has got, and while a view watches and
 * the renderer is behind, one fetch of what changed runs at a time, at most one per
 * `minIntervalMs`. A stream of thousands of blocks costs nothing while nobody looks at them.
 */
export class OnDemand {
  private watchers = 0;
  private inFlight = false;
  private wait: (() => void) | null = null;
  private lastFetchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly scheduler: FrameScheduler,
    /** The renderer holds less than main reported. */
    private readonly behind: () => boolean,
    /** Fetches what changed and applies it; a rejection waits for the next `poke`. */
    private readonly fetch: () => Promise<void>,
    private readonly minIntervalMs: number,
  ) {}

  get watched(): boolean {
    return this.watchers > 0;
  }

  /** A view shows the part: keep it current until the returned function is called. */
  watch(): () => void {
    this.watchers++;
    this.poke();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.watchers--;
      if (this.watchers === 0) this.cancelWait();
    };
  }

  /** Main got further (a batch), or the part was reset: fetch if someone watches. */
  poke(): void {
    if (this.watchers === 0 || this.inFlight || this.wait || !this.behind()) return;
    const delay = this.lastFetchAt + this.minIntervalMs - this.scheduler.now();
    if (delay > 0) {
      this.wait = this.scheduler.after(delay, () => {
        this.wait = null;
        this.poke();
      });
      return;
    }
    this.inFlight = true;
    this.lastFetchAt = this.scheduler.now();
    this.fetch().then(
      () => {
        this.inFlight = false;
        this.poke();
      },
      () => {
        this.inFlight = false;
      },
    );
  }

  private cancelWait(): void {
    this.wait?.();
    this.wait = null;
  }
}
