import { describe, expect, it } from 'vitest';
import type { BlockSummary, DiagnosticPayload, SessionBatch, SessionDetail, SessionSummary } from '../../src-shared/contract';
import { createFakeService, row, rows, rowsBatch, settle, summary } from '../testing/fake-service';
import { createManualScheduler } from './scheduler';
import { SessionsModel } from './sessions';

function block(id: number, change: Partial<BlockSummary> = {}): BlockSummary {
  return {
    id, agent: 'agent-a', kind: 'text', status: 'open', length: 1, preview: 'x', citations: 0, images: 0,
    firstEnvelope: id, lastEnvelope: id, envelopeCount: 1, leg: 0, byteStart: 0, byteEnd: 1, ...change,
  };
}

function diagnostic(seq: number): DiagnosticPayload {
  return { seq, rule: 'sse.test', severity: 'warning', message: `finding ${seq}`, at: { envelope: seq } };
}

function batch(start: number, count: number, change: Partial<SessionBatch> = {}): SessionBatch {
  return { ...rowsBatch(rows(start, start + count), [], start + count), ...change };
}

function detail(s: SessionSummary): SessionDetail {
  return { summary: s, request: null, legs: [], agents: [{ uuid: 'agent-a', parent: null, firstEnvelope: 0 }], pendingTools: null };
}

function setup(loaded: { blocks?: BlockSummary[]; diagnostics?: DiagnosticPayload[] } = {}) {
  const scheduler = createManualScheduler();
  const errors: string[] = [];
  let current = summary('s1');
  const fake = createFakeService({
    getSession: () => Promise.resolve(detail(current)),
    getBlocks: () => Promise.resolve(loaded.blocks ?? []),
    getDiagnostics: () => Promise.resolve(loaded.diagnostics ?? []),
  });
  const model = new SessionsModel({ service: fake.service, scheduler, reportError: (c, e) => errors.push(`${c}: ${(e as Error).message}`) });
  return { model, scheduler, fake, errors, setSummary: (s: SessionSummary) => (current = s) };
}

describe('sessions model', () => {
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

  it('merges blocks by id and diagnostics by seq from batches and from the first load, in any order', async () => {
    const { model, scheduler } = setup({ blocks: [block(0, { status: 'complete' }), block(1)], diagnostics: [diagnostic(1), diagnostic(3)] });
    model.applySessionsChanged([summary('s1')]);
    // A batch that arrives before the load answers.
    model.receiveBatch(batch(0, 4, { blocks: [block(1, { status: 'complete', length: 9 }), block(2)], diagnostics: [diagnostic(3), diagnostic(4)] }));
    scheduler.frame();
    const data = model.data('s1');
    await settle();
    const snapshot = data.getSnapshot();
    expect(snapshot.loaded).toBe(true);
    expect(snapshot.blocks.map((b) => `${b?.id}:${b?.status}`)).toEqual(['0:complete', '1:complete', '2:open']);
    expect(snapshot.blocks[1]?.length).toBe(9);
    expect(snapshot.diagnostics.map((d) => d.seq)).toEqual([1, 3, 4]);
    expect(snapshot.agents.map((a) => a.uuid)).toEqual(['agent-a']);
  });

  it('keeps sessions newest first and drops the active id when its session goes away', () => {
    const { model } = setup();
    model.applySessionsChanged([summary('a', { createdAt: 1 }), summary('b', { createdAt: 3 }), summary('c', { createdAt: 2 })]);
    expect(model.list.getSnapshot().list.map((s) => s.id)).toEqual(['b', 'c', 'a']);
    model.setActive('c');
    model.applySessionsChanged([summary('a', { createdAt: 1 })]);
    expect(model.list.getSnapshot().activeId).toBeNull();
  });

  it('refreshes the detail when a new leg starts or the session starts waiting for tools', async () => {
    const { model, fake, setSummary } = setup();
    model.applySessionsChanged([summary('s1')]);
    model.data('s1');
    await settle();
    const before = fake.calls.filter((c) => c.method === 'getSession').length;
    model.applySessionsChanged([summary('s1', { envelopes: 5 })]);
    await settle();
    expect(fake.calls.filter((c) => c.method === 'getSession').length).toBe(before);
    const waiting = summary('s1', { awaitingTools: true, state: 'complete' });
    setSummary(waiting);
    model.applySessionsChanged([waiting]);
    await settle();
    expect(fake.calls.filter((c) => c.method === 'getSession').length).toBe(before + 1);
    expect(model.data('s1').getSnapshot().detail?.summary.awaitingTools).toBe(true);
  });

  it('routes live status and replay state to their session', () => {
    const { model } = setup();
    model.applySessionsChanged([summary('s1')]);
    model.applyLiveStatus({ sessionId: 's1', state: 'streaming', leg: 0, bytes: 10, envelopes: 2, elapsedMs: 100, envelopesPerSecond: 20, bytesPerSecond: 100, idleMs: 0 });
    model.applyReplayState({ sessionId: 's1', source: 's0', playing: true, speed: 4, instant: false, position: 3, total: 9, finished: false, breakpoints: [], loop: false, loops: 0, types: [] });
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

  it('reports a failed load and tries again on the next request', async () => {
    const scheduler = createManualScheduler();
    const errors: string[] = [];
    let fail = true;
    const fake = createFakeService({
      getSession: () => (fail ? Promise.reject(new Error('gone')) : Promise.resolve(detail(summary('s1')))),
      getBlocks: () => Promise.resolve([]),
      getDiagnostics: () => Promise.resolve([]),
    });
    const model = new SessionsModel({ service: fake.service, scheduler, reportError: (c, e) => errors.push(`${c}: ${(e as Error).message}`) });
    model.applySessionsChanged([summary('s1')]);
    model.data('s1');
    await settle();
    expect(errors).toEqual(['Load session: gone']);
    fail = false;
    model.data('s1');
    await settle();
    expect(model.data('s1').getSnapshot().loaded).toBe(true);
  });

  it('applies a changed row from a later batch to the timeline', () => {
    const { model, scheduler } = setup();
    model.receiveBatch(batch(0, 3));
    model.receiveBatch(batch(3, 0, { total: 3, changed: [row(1, { block: 7 })] }));
    scheduler.frame();
    expect(model.timeline('s1').getRow(1)?.block).toBe(7);
  });

  it('starts a session over when main announces a newer generation: rows, blocks, agents and findings of the old start go', async () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1')]);
    const data = model.data('s1');
    await settle();
    model.receiveBatch(batch(0, 40, { blocks: [block(0), block(1)], diagnostics: [diagnostic(30)], agents: [{ uuid: 'agent-b', parent: null, firstEnvelope: 3 }] }));
    scheduler.frame();
    expect(model.timeline('s1').getSnapshot().total).toBe(40);

    // A replay seeks back to 9 envelopes: main starts the session over and plays 9 again.
    model.receiveBatch(batch(0, 9, { generation: 1, blocks: [block(0)] }));
    scheduler.frame();
    const snapshot = data.getSnapshot();
    expect(snapshot.total).toBe(9);
    expect(snapshot.blocks.filter(Boolean)).toHaveLength(1);
    expect(snapshot.diagnostics).toEqual([]);
    expect(snapshot.agents.map((a) => a.uuid)).not.toContain('agent-b');
    expect(model.timeline('s1').getSnapshot().total).toBe(9);
    expect(model.timeline('s1').seqAt(9)).toBeUndefined();

    // A batch of the old generation arriving late changes nothing.
    model.receiveBatch(batch(9, 31));
    scheduler.frame();
    expect(data.getSnapshot().total).toBe(9);
    // Stepping on continues from the new start.
    model.receiveBatch(batch(9, 1, { generation: 1 }));
    scheduler.frame();
    expect(model.timeline('s1').getSnapshot().total).toBe(10);
  });

  it('starts a session over on a summary of a newer generation, and ignores a detail fetched before it', async () => {
    const { model, scheduler, setSummary } = setup();
    model.applySessionsChanged([summary('s1', { envelopes: 40 })]);
    const data = model.data('s1');
    await settle();
    model.receiveBatch(batch(0, 40));
    scheduler.frame();
    model.applySessionsChanged([summary('s1', { envelopes: 0, generation: 1 })]);
    expect(data.getSnapshot().total).toBe(0);
    expect(model.timeline('s1').getSnapshot().total).toBe(0);
    setSummary(summary('s1', { envelopes: 40 }));
    await model.refresh('s1');
    expect(data.getSnapshot().total).toBe(0);
    expect(data.getSnapshot().summary.generation).toBe(1);
  });
});
