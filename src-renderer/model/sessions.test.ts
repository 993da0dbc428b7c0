import { describe, expect, it } from 'vitest';
import { row, summary } from '../testing/fake-service';
import { batch, liveStatus, setup } from '../testing/sessions-setup';
import { FILE_LOAD_INTERVAL_MS, LIVE_INTERVAL_MS } from './sessions';

describe('sessions model: batches, the list, status routing', () => {
  it('applies the batches of a frame together: one store notification per session per frame', () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1')]);
    const data = model.data('s1');
    let notified = 0;
    data.subscribe(() => notified++);
    for (let i = 0; i < 100; i++) model.receiveBatch(batch(i, 1));
    expect(data.getSnapshot().total).toBe(0);
    scheduler.frame();
    expect(notified).toBe(1);
    expect(data.getSnapshot().total).toBe(100);
    expect(model.timeline('s1').getSnapshot().total).toBe(100);
  });

  it("applies a loading file's batches at most every FILE_LOAD_INTERVAL_MS, a live session's at most every LIVE_INTERVAL_MS", () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1', { state: 'loading' }), summary('s2', { state: 'streaming' })]);
    const file = model.data('s1');
    const live = model.data('s2');
    model.receiveBatch(batch(0, 10));
    scheduler.frame();
    expect(file.getSnapshot().total).toBe(10);
    model.receiveBatch(batch(10, 10));
    scheduler.frame();
    expect(file.getSnapshot().total).toBe(10);
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    scheduler.frame();
    expect(file.getSnapshot().total).toBe(20);
    // A batch every frame (16 ms): applied once LIVE_INTERVAL_MS (50) has passed, at every
    // fourth frame, each time all that came.
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    const applied: number[] = [];
    for (let i = 0; i < 9; i++) {
      model.receiveBatch({ ...batch(i * 5, 5), sessionId: 's2' });
      scheduler.frame();
      applied.push(live.getSnapshot().total);
      scheduler.advance(16);
    }
    expect(applied).toEqual([5, 5, 5, 5, 25, 25, 25, 25, 45]);
    // A batch less often than that: applied at its next frame.
    scheduler.advance(LIVE_INTERVAL_MS);
    model.receiveBatch({ ...batch(45, 5), sessionId: 's2' });
    scheduler.frame();
    expect(live.getSnapshot().total).toBe(50);
  });

  it('keeps sessions newest first and drops the active id when its session goes away', () => {
    const { model } = setup();
    model.applySessionsChanged([
      summary('a', { createdAt: 1 }),
      summary('b', { createdAt: 3 }),
      summary('c', { createdAt: 2 }),
    ]);
    expect(model.list.getSnapshot().list.map((s) => s.id)).toEqual(['b', 'c', 'a']);
    model.setActive('c');
    model.applySessionsChanged([summary('a', { createdAt: 1 })]);
    expect(model.list.getSnapshot().activeId).toBeNull();
  });

  it("routes live status and replay state to their session (a stream's status with its next rows, or within FILE_LOAD_INTERVAL_MS)", () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1')]);
    model.applyLiveStatus(liveStatus('s1'));
    model.applyReplayState({
      sessionId: 's1',
      source: 's0',
      playing: true,
      speed: 4,
      instant: false,
      position: 3,
      total: 9,
      finished: false,
      breakpoints: [],
      loop: false,
      loops: 0,
      types: [],
    });
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    const snapshot = model.data('s1').getSnapshot();
    expect(snapshot.live?.envelopes).toBe(2);
    expect(snapshot.replay?.speed).toBe(4);
  });

  it('accepts a batch for a session before the list announces it', () => {
    const { model, scheduler } = setup();
    model.receiveBatch({ ...batch(0, 2), sessionId: 'early' });
    scheduler.frame();
    model.applySessionsChanged([summary('early', { envelopes: 2 })]);
    const snapshot = model.data('early').getSnapshot();
    expect(snapshot.total).toBe(2);
    expect(snapshot.summary.title).toBe('Session early');
  });

  it("shows in the list the larger of the list's envelope count and the rows the batches brought", () => {
    const { model, scheduler } = setup();
    const count = (): number | undefined => model.summary('s1')?.envelopes;
    model.applySessionsChanged([summary('s1', { envelopes: 0 }), summary('s2', { envelopes: 4, createdAt: 1 })]);
    model.receiveBatch(batch(0, 30));
    scheduler.frame();
    // The batches ran ahead of the list: the list says what the table says.
    expect(count()).toBe(30);
    // A list counted before the last batches does not take the count back…
    model.applySessionsChanged([summary('s1', { envelopes: 20 }), summary('s2', { envelopes: 4, createdAt: 1 })]);
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    expect(count()).toBe(30);
    // …a later one moves it on, and a session without batches keeps the list's count.
    model.applySessionsChanged([summary('s1', { envelopes: 45 }), summary('s2', { envelopes: 9, createdAt: 1 })]);
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    expect(count()).toBe(45);
    expect(model.summary('s2')?.envelopes).toBe(9);
    // A session started over counts from its new generation's rows alone.
    model.applySessionsChanged([summary('s1', { envelopes: 0, generation: 1 })]);
    expect(count()).toBe(0);
  });

  it('applies a changed row from a later batch to the timeline', () => {
    const { model, scheduler } = setup();
    model.receiveBatch(batch(0, 3));
    model.receiveBatch(batch(3, 0, { total: 3, changed: [row(1, { block: 7 })] }));
    scheduler.frame();
    expect(model.timeline('s1').getRow(1)?.block).toBe(7);
  });
});
