import { describe, expect, it } from 'vitest';
import type { TaskProgress } from '../../src-shared/contract';
import { summary } from '../testing/fake-service';
import { batch, liveStatus, setup } from '../testing/sessions-setup';
import { onlyCountsMoved } from './held-counts';
import { FILE_LOAD_INTERVAL_MS } from './sessions';

const progress = (sessionId: string, decoded: number, change: Partial<TaskProgress> = {}): TaskProgress => ({
  sessionId,
  task: 'open',
  total: 1000,
  received: 1000,
  decoded,
  envelopes: decoded / 10,
  envelopesPerSecond: 100,
  bytesPerSecond: 1000,
  elapsedMs: 100,
  done: false,
  ...change,
});

describe('which list changes can wait for the next batches', () => {
  const loading = summary('file', { state: 'loading', envelopes: 10 });
  const live = summary('live', { envelopes: 5 });

  it("sessions' counts moving (envelopes, bytes, findings, blocks), other sessions equal by value", () => {
    const moved = [
      { ...loading, envelopes: 99, bytes: 4096, blocks: 3 },
      summary('live', { envelopes: 7, diagnostics: { error: 1, warning: 0, info: 0 } }),
    ];
    expect(onlyCountsMoved([loading, live], moved)).toBe(true);
  });

  it('not a state change, a session added or gone, another field, or a new generation', () => {
    expect(onlyCountsMoved([loading, live], [{ ...loading, state: 'complete' }, live])).toBe(false);
    expect(onlyCountsMoved([loading], [loading, live])).toBe(false);
    expect(onlyCountsMoved([loading, live], [loading, summary('other')])).toBe(false);
    expect(onlyCountsMoved([loading, live], [loading, { ...live, awaitingTools: true }])).toBe(false);
    expect(onlyCountsMoved([loading, live], [{ ...loading, format: 'xml' }, live])).toBe(false);
    expect(onlyCountsMoved([loading, live], [{ ...loading, generation: 1 }, live])).toBe(false);
  });
});

describe("a loading file's counts render with its batches", () => {
  function loadingFile() {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1', { state: 'loading' })]);
    const data = model.data('s1');
    model.receiveBatch(batch(0, 10));
    scheduler.frame();
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    let notified = 0;
    data.subscribe(() => notified++);
    return { model, scheduler, data, notifications: () => notified };
  }

  // React renders the store changes of one task once: the counts render with the batches' rows.
  it('holds the list counts and the progress, then applies them in the frame that applies the batches', () => {
    const { model, scheduler, data, notifications } = loadingFile();
    model.applySessionsChanged([summary('s1', { state: 'loading', envelopes: 20, bytes: 200 })]);
    model.applyProgress(progress('s1', 200));
    model.applyProgress(progress('s1', 300));
    expect(notifications()).toBe(0);
    expect(data.getSnapshot().summary.envelopes).toBe(0);
    model.receiveBatch(batch(10, 10));
    scheduler.frame();
    expect(notifications()).toBeGreaterThan(0);
    const now = data.getSnapshot();
    expect(now.summary.envelopes).toBe(20);
    expect(now.progress?.decoded).toBe(300);
    expect(now.total).toBe(20);
    expect(model.list.getSnapshot().list[0]?.bytes).toBe(200);
  });

  it('applies them after FILE_LOAD_INTERVAL_MS when no batch comes', () => {
    const { model, scheduler, data } = loadingFile();
    model.applyProgress(progress('s1', 500));
    scheduler.advance(FILE_LOAD_INTERVAL_MS - 1);
    expect(data.getSnapshot().progress).toBeNull();
    scheduler.advance(1);
    expect(data.getSnapshot().progress?.decoded).toBe(500);
  });

  it('applies a list that cannot wait in place of the one held, not after it', () => {
    const { model } = loadingFile();
    model.applySessionsChanged([summary('s1', { state: 'loading', envelopes: 20 })]);
    const lists: number[] = [];
    model.list.subscribe(() => lists.push(model.list.getSnapshot().list[0]?.envelopes ?? -1));
    model.applySessionsChanged([summary('s1', { state: 'complete', envelopes: 100 })]);
    expect(lists).toEqual([100]);
  });

  it('applies a state change at once, after the progress held before it', () => {
    const { model, data } = loadingFile();
    model.applyProgress(progress('s1', 1000, { done: true }));
    model.applySessionsChanged([summary('s1', { state: 'complete', envelopes: 100 })]);
    const now = data.getSnapshot();
    expect(now.summary.state).toBe('complete');
    expect(now.progress?.done).toBe(true);
  });

  it("holds a stream's live status for its rows, and applies a change of state at once", () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1', { state: 'streaming' })]);
    const data = model.data('s1');
    model.applyLiveStatus(liveStatus('s1'));
    expect(data.getSnapshot().live).toBeNull();
    model.receiveBatch(batch(0, 5, { sessionId: 's1' }));
    scheduler.frame();
    expect(data.getSnapshot().live?.envelopes).toBe(2);
    model.applyLiveStatus(liveStatus('s1', { state: 'complete', envelopes: 5 }));
    expect(data.getSnapshot().live?.state).toBe('complete');
  });

  it("applies the progress of a session that is not loading (an export's) at once", () => {
    const { model } = setup();
    model.applySessionsChanged([summary('s1', { state: 'complete' })]);
    const data = model.data('s1');
    model.applyProgress(progress('s1', 10, { task: 'export' }));
    expect(data.getSnapshot().progress?.task).toBe('export');
  });
});
