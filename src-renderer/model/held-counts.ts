import type { SessionSummary } from '../../src-shared/contract';
import type { FrameScheduler } from './scheduler';

/**
 * While a session takes in a stream, main tells the page of its counts several ways, each on a
 * clock of its own: the batches (rows; a loading file's applied every FILE_LOAD_INTERVAL_MS),
 * the session list (envelopes, bytes, findings) and the progress bar or the live status.
 * Applied as they came, each was a render of its own (about sixty in a 100 MB open), and those
 * renders took Chromium CPU that the decoder the page waits for needed (docs/performance.md,
 * "Stop 39"). Counts are held here and applied with the next batches, or after `interval` if
 * none come: one render a tick. The caller applies anything else (a state change, a session
 * added or gone) at once, after releasing what is held.
 */
export class HeldCounts {
  /** The newest update of each kind and session, by key, in the order they were first held. */
  private readonly held = new Map<string, () => void>();
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly scheduler: FrameScheduler,
    private readonly interval: number,
  ) {}

  /** Holds `apply` until the next release; a later update of the same `key` replaces it. */
  hold(key: string, apply: () => void): void {
    this.held.set(key, apply);
    this.cancelTimer ??= this.scheduler.after(this.interval, () => {
      this.cancelTimer = null;
      this.release();
    });
  }

  /** Forgets what is held under `key`: a newer update of it is being applied at once. */
  drop(key: string): void {
    this.held.delete(key);
  }

  /** Applies what is held now: with the batches, or before a change that cannot wait. */
  release(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.held.size === 0) return;
    const updates = [...this.held.values()];
    this.held.clear();
    for (const apply of updates) apply();
  }
}

/** A summary without the fields that move with every chunk a session takes in. */
function withoutCounts(
  summary: SessionSummary,
): Omit<SessionSummary, 'envelopes' | 'bytes' | 'diagnostics' | 'blocks'> {
  const { envelopes: _envelopes, bytes: _bytes, diagnostics: _diagnostics, blocks: _blocks, ...rest } = summary;
  return rest;
}

/** Whether `next` lists the same sessions as `current`, with nothing changed but their counts. */
export function onlyCountsMoved(current: readonly SessionSummary[], next: readonly SessionSummary[]): boolean {
  if (current.length !== next.length) return false;
  const before = new Map(current.map((s) => [s.id, s]));
  return next.every((summary) => {
    const was = before.get(summary.id);
    return was !== undefined && JSON.stringify(withoutCounts(was)) === JSON.stringify(withoutCounts(summary));
  });
}
