import type { SessionBatch } from '../../src-shared/contract';
import { columnRows } from '../../src-shared/contract/row-columns';
import type { FrameScheduler } from './scheduler';

/**
 * Queues incoming session batches and applies them once per animation frame, at most
 * `maxRowsPerFrame` rows at a time (HTTP Toolkit's `queueEventFlush`): however fast events
 * arrive, the views update at most once per frame and a backlog drains over several frames
 * instead of blocking one. `interval` can space the frames further: the batches wait until
 * that long after the last frame that applied some (the shortest interval any queued batch asks for).
 */
export interface BatchQueue {
  push(batch: SessionBatch): void;
  /** Applies everything queued now (tests, and before reading state that must be current). */
  flushAll(): void;
  readonly pendingBatches: number;
}

export const DEFAULT_MAX_ROWS_PER_FRAME = 20_000;

export function createBatchQueue(
  apply: (batches: readonly SessionBatch[]) => void,
  scheduler: FrameScheduler,
  maxRowsPerFrame = DEFAULT_MAX_ROWS_PER_FRAME,
  interval: (batch: SessionBatch) => number = () => 0,
): BatchQueue {
  let queue: SessionBatch[] = [];
  let head = 0;
  /** Cancels the pending frame (or the timer that will ask for it). */
  let cancelFrame: (() => void) | null = null;
  let lastFlush = Number.NEGATIVE_INFINITY;

  const size = (batch: SessionBatch): number => Math.max(1, columnRows(batch.columns) + batch.changed.length);

  const take = (limit: number): SessionBatch[] => {
    const taken: SessionBatch[] = [];
    let rows = 0;
    // Always at least one batch, so a batch larger than the limit still gets through.
    while (head < queue.length && (taken.length === 0 || rows + size(queue[head]!) <= limit)) {
      const batch = queue[head++]!;
      rows += size(batch);
      taken.push(batch);
    }
    if (head === queue.length) {
      queue = [];
      head = 0;
    }
    return taken;
  };

  const wait = (): number => {
    let shortest = Number.POSITIVE_INFINITY;
    for (let i = head; i < queue.length && shortest > 0; i++) shortest = Math.min(shortest, interval(queue[i]!));
    return lastFlush + shortest - scheduler.now();
  };

  const flushFrame = (): void => {
    cancelFrame = null;
    if (head === queue.length) return;
    const remaining = wait();
    if (remaining > 0) {
      let cancelLater: (() => void) | null = null;
      const cancelTimer = scheduler.after(remaining, () => {
        cancelLater = scheduler.requestFrame(flushFrame);
      });
      cancelFrame = () => {
        cancelTimer();
        cancelLater?.();
      };
      return;
    }
    lastFlush = scheduler.now();
    const taken = take(maxRowsPerFrame);
    if (head < queue.length) schedule();
    if (taken.length > 0) apply(taken);
  };

  const schedule = (): void => {
    cancelFrame ??= scheduler.requestFrame(flushFrame);
  };

  return {
    push(batch) {
      queue.push(batch);
      schedule();
    },
    flushAll() {
      cancelFrame?.();
      cancelFrame = null;
      const taken = take(Number.POSITIVE_INFINITY);
      if (taken.length > 0) apply(taken);
    },
    get pendingBatches() {
      return queue.length - head;
    },
  };
}
