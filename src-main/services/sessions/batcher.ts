import type { SessionBatch } from '../../../src-shared/contract/payloads';
import type { Timers } from '../connection/connection';
import type { SessionStore } from './store/session-store';

/**
 * Coalesces a session's changes into batch events: at most one per interval per session
 * (an animation frame), at most `maxRows` new rows and `maxChanges` changed rows, blocks and
 * diagnostics each; a bigger backlog drains over the following intervals, with the thread
 * free in between. One event per envelope is the anti-pattern this exists to avoid.
 */

/**
 * Changed rows, blocks and diagnostics per batch. The end of a large session can change
 * thousands at once (every tool call left without a result gets a diagnostic and a badge);
 * at about 10 µs each, a thousand keeps one batch near 10 ms.
 */
export const MAX_BATCH_CHANGES = 1000;
export interface Batcher {
  /** Something changed in the session; a batch will follow within one interval. */
  schedule(session: SessionStore): void;
  /** Send what is pending now (a leg ended: the status line should not lag the rows). */
  flush(session: SessionStore): void;
  forget(sessionId: string): void;
  /**
   * Holds every batch back (`true`) until released (`false`): a client is not taking them as
   * fast as they come (the browser host's socket backs up behind a page paused in DevTools).
   * What changes meanwhile stays in each session's batch tracker, which only counts it, and
   * drains in the intervals after the release: nothing is lost, and nothing queues in memory.
   */
  hold(held: boolean): void;
  dispose(): void;
}

export function createBatcher(
  emit: (batch: SessionBatch) => void,
  options: { timers: Timers; now: () => number; intervalMs: number; maxRows: number; maxChanges?: number },
): Batcher {
  const timers = new Map<string, unknown>();
  const lastFlush = new Map<string, number>();
  let held = false;
  /** Sessions whose batch came due while batches were held. */
  const waiting = new Map<string, SessionStore>();

  const flush = (session: SessionStore): void => {
    const timer = timers.get(session.id);
    if (timer !== undefined) options.timers.clearTimeout(timer);
    timers.delete(session.id);
    if (held) {
      waiting.set(session.id, session);
      return;
    }
    lastFlush.set(session.id, options.now());
    const batch = session.takeBatch(options.maxRows, options.maxChanges ?? MAX_BATCH_CHANGES);
    if (batch) emit(batch);
    if (session.batchPending) schedule(session);
  };

  const schedule = (session: SessionStore): void => {
    if (timers.has(session.id) || waiting.has(session.id)) return;
    const since = options.now() - (lastFlush.get(session.id) ?? Number.NEGATIVE_INFINITY);
    const delay = Math.max(0, options.intervalMs - since);
    timers.set(
      session.id,
      options.timers.setTimeout(() => flush(session), delay),
    );
  };

  return {
    schedule,
    flush,
    forget(sessionId) {
      const timer = timers.get(sessionId);
      if (timer !== undefined) options.timers.clearTimeout(timer);
      timers.delete(sessionId);
      lastFlush.delete(sessionId);
      waiting.delete(sessionId);
    },
    hold(hold) {
      held = hold;
      if (held) return;
      const due = [...waiting.values()];
      waiting.clear();
      for (const session of due) schedule(session);
    },
    dispose() {
      for (const timer of timers.values()) options.timers.clearTimeout(timer);
      timers.clear();
      waiting.clear();
    },
  };
}
