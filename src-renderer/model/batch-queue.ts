import type { SessionBatch } from '../../src-shared/contract';
import { columnRows } from '../../src-shared/contract/row-columns';
import type { FrameScheduler } from './scheduler';

/**
 * Queues incoming session batches and applies them once per animation frame, at most
 * `maxRowsPerFrame` rows at a time (HTTP Toolkit's `queueEventFlush`): however fast events
 * arrive, the views update at most once per frame and a backlog drains over several frames
 * instead of blocking one.
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
): BatchQueue {
  let queue: SessionBatch[] = [];
  let head = 0;
  let cancelFrame: (() => void) | null = null;

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

  const flushFrame = (): void => {
    cancelFrame = null;
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
