import { describe, expect, it } from 'vitest';
import type { SessionBatch } from '../../src-shared/contract';
import { rows, rowsBatch } from '../testing/fake-service';
import { createBatchQueue } from './batch-queue';
import { createManualScheduler } from './scheduler';

function batch(start: number, count: number, sessionId = 's1'): SessionBatch {
  return rowsBatch(rows(start, start + count), [], start + count, sessionId);
}

describe('batch queue', () => {
  it('applies everything that arrived within a frame in one call, at the next frame', () => {
    const scheduler = createManualScheduler();
    const applied: SessionBatch[][] = [];
    const queue = createBatchQueue((batches) => applied.push([...batches]), scheduler);
    for (let i = 0; i < 50; i++) queue.push(batch(i, 1));
    expect(applied).toHaveLength(0);
    expect(scheduler.pendingFrames).toBe(1);
    scheduler.frame();
    expect(applied).toHaveLength(1);
    expect(applied[0]).toHaveLength(50);
    expect(queue.pendingBatches).toBe(0);
  });

  it('drains a backlog over several frames, never more than the row budget per frame', () => {
    const scheduler = createManualScheduler();
    const perFrame: number[] = [];
    const queue = createBatchQueue(
      (batches) => perFrame.push(batches.reduce((n, b) => n + b.columns.receivedAt.length, 0)),
      scheduler,
      1000,
    );
    for (let i = 0; i < 10; i++) queue.push(batch(i * 400, 400));
    while (scheduler.pendingFrames > 0) scheduler.frame();
    expect(perFrame).toEqual([800, 800, 800, 800, 800]);
    expect(perFrame.every((n) => n <= 1000)).toBe(true);
  });

  it('lets a single batch larger than the budget through on its own', () => {
    const scheduler = createManualScheduler();
    const sizes: number[] = [];
    const queue = createBatchQueue(
      (batches) => sizes.push(...batches.map((b) => b.columns.receivedAt.length)),
      scheduler,
      100,
    );
    queue.push(batch(0, 5000));
    queue.push(batch(5000, 10));
    scheduler.frame();
    expect(sizes).toEqual([5000]);
    scheduler.frame();
    expect(sizes).toEqual([5000, 10]);
  });

  it('keeps the arrival order across frames', () => {
    const scheduler = createManualScheduler();
    const starts: number[] = [];
    const queue = createBatchQueue((batches) => starts.push(...batches.map((b) => b.start)), scheduler, 3);
    for (let i = 0; i < 7; i++) queue.push(batch(i, 1));
    while (scheduler.pendingFrames > 0) scheduler.frame();
    expect(starts).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('flushAll applies the queue at once and cancels the pending frame', () => {
    const scheduler = createManualScheduler();
    let calls = 0;
    const queue = createBatchQueue(() => calls++, scheduler);
    queue.push(batch(0, 1));
    queue.flushAll();
    expect(calls).toBe(1);
    expect(scheduler.pendingFrames).toBe(0);
    queue.flushAll();
    expect(calls).toBe(1);
  });

  it('counts an empty batch (blocks or diagnostics only) towards the budget', () => {
    const scheduler = createManualScheduler();
    const per: number[] = [];
    const queue = createBatchQueue((batches) => per.push(batches.length), scheduler, 2);
    for (let i = 0; i < 4; i++) queue.push(batch(0, 0));
    while (scheduler.pendingFrames > 0) scheduler.frame();
    expect(per).toEqual([2, 2]);
  });

  it('spaces the frames by the interval the queued batches ask for, the shortest of them', () => {
    const scheduler = createManualScheduler();
    const applied: number[] = [];
    const interval = (b: SessionBatch): number => (b.sessionId === 'file' ? 100 : 0);
    const queue = createBatchQueue((batches) => applied.push(batches.length), scheduler, undefined, interval);
    // The first batch goes at the next frame: a file's first rows do not wait.
    queue.push(batch(0, 1, 'file'));
    scheduler.frame();
    expect(applied).toEqual([1]);
    queue.push(batch(1, 1, 'file'));
    queue.push(batch(2, 1, 'file'));
    scheduler.frame();
    expect(applied).toEqual([1]);
    scheduler.advance(99);
    scheduler.frame();
    expect(applied).toEqual([1]);
    scheduler.advance(1);
    scheduler.frame();
    expect(applied).toEqual([1, 2]);
    // A live session's batch in the queue: no waiting for anyone.
    queue.push(batch(3, 1, 'file'));
    queue.push(batch(0, 1, 'live'));
    scheduler.frame();
    expect(applied).toEqual([1, 2, 2]);
  });

  it('flushAll also applies batches waiting for their interval, and nothing runs later', () => {
    const scheduler = createManualScheduler();
    const applied: number[] = [];
    const queue = createBatchQueue(
      (batches) => applied.push(batches.length),
      scheduler,
      undefined,
      () => 100,
    );
    queue.push(batch(0, 1));
    scheduler.frame();
    queue.push(batch(1, 1));
    scheduler.frame();
    queue.flushAll();
    expect(applied).toEqual([1, 1]);
    scheduler.advance(200);
    scheduler.frame();
    expect(applied).toEqual([1, 1]);
  });
});
