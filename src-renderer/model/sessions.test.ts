import { describe, expect, it } from 'vitest';
import type {
  BlockSummary,
  DiagnosticPayload,
  SessionBatch,
  SessionDetail,
  SessionSummary,
} from '../../src-shared/contract';
import { createFakeService, row, rows, rowsBatch, settle, summary } from '../testing/fake-service';
import { createManualScheduler, type ManualScheduler } from './scheduler';
import { FILE_LOAD_INTERVAL_MS, LIVE_INTERVAL_MS, ON_DEMAND_INTERVAL_MS, SessionsModel } from './sessions';

function block(id: number, change: Partial<BlockSummary> = {}): BlockSummary {
  return {
    id,
    agent: 'agent-a',
    kind: 'text',
    status: 'open',
    length: 1,
    preview: 'x',
    citations: 0,
    images: 0,
    firstEnvelope: id,
    lastEnvelope: id,
    envelopeCount: 1,
    leg: 0,
    byteStart: 0,
    byteEnd: 1,
    ...change,
  };
}

function diagnostic(seq: number): DiagnosticPayload {
  return { seq, rule: 'sse.test', severity: 'warning', message: `finding ${seq}`, at: { envelope: seq } };
}

function batch(start: number, count: number, change: Partial<SessionBatch> = {}): SessionBatch {
  return { ...rowsBatch(rows(start, start + count), [], start + count), ...change };
}

function detail(s: SessionSummary): SessionDetail {
  return {
    summary: s,
    request: null,
    legs: [],
    agents: [{ uuid: 'agent-a', parent: null, firstEnvelope: 0 }],
    pendingTools: null,
  };
}

/**
 * Main's side for the tests: blocks with the revision each last changed at, findings with
 * the times they were replaced; getBlockChanges and getDiagnosticsSince answer like main.
 */
/** The next frame that applies a live session's batches: they come at most every LIVE_INTERVAL_MS. */
function nextUpdate(scheduler: ManualScheduler): void {
  scheduler.advance(LIVE_INTERVAL_MS);
  scheduler.frame();
}

function setup(
  main: {
    blocks?: { block: BlockSummary; revision: number }[];
    diagnostics?: DiagnosticPayload[];
    resets?: number;
  } = {},
) {
  const scheduler = createManualScheduler();
  const errors: string[] = [];
  let current = summary('s1');
  const fake = createFakeService({
    getSession: () => Promise.resolve(detail(current)),
    getBlockChanges: ({ since }: { since: number }) => {
      const blocks = main.blocks ?? [];
      const revision = Math.max(0, ...blocks.map((b) => b.revision));
      return Promise.resolve({ revision, blocks: blocks.filter((b) => b.revision > since).map((b) => b.block) });
    },
    getDiagnosticsSince: ({ from, resets }: { from: number; resets: number }) => {
      const all = main.diagnostics ?? [];
      const start = resets === (main.resets ?? 0) ? from : 0;
      return Promise.resolve({ resets: main.resets ?? 0, from: start, diagnostics: all.slice(start) });
    },
  });
  const model = new SessionsModel({
    service: fake.service,
    scheduler,
    reportError: (c, e) => errors.push(`${c}: ${(e as Error).message}`),
  });
  const callsOf = (method: string) => fake.calls.filter((c) => c.method === method);
  return { model, scheduler, fake, errors, main, callsOf, setSummary: (s: SessionSummary) => (current = s) };
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
    // A batch every frame (16 ms): applied at every other frame, each time all that came.
    scheduler.advance(FILE_LOAD_INTERVAL_MS);
    const applied: number[] = [];
    for (let i = 0; i < 6; i++) {
      model.receiveBatch({ ...batch(i * 5, 5), sessionId: 's2' });
      scheduler.frame();
      applied.push(live.getSnapshot().total);
      scheduler.advance(16);
    }
    expect(applied).toEqual([5, 5, 15, 15, 25, 25]);
    // A batch less often than that: applied at its next frame.
    scheduler.advance(LIVE_INTERVAL_MS);
    model.receiveBatch({ ...batch(30, 5), sessionId: 's2' });
    scheduler.frame();
    expect(live.getSnapshot().total).toBe(35);
  });

  it('keeps the agent list as it was when main announces the same agents again (names and colours are not derived again)', async () => {
    const { model, scheduler } = setup();
    model.applySessionsChanged([summary('s1')]);
    const data = model.data('s1');
    await settle();
    const agentA = { uuid: 'agent-a', parent: null, firstEnvelope: 0 };
    model.receiveBatch(batch(0, 4, { agents: [{ ...agentA }] }));
    nextUpdate(scheduler);
    const held = data.getSnapshot().agents;
    model.receiveBatch(batch(4, 4, { agents: [{ ...agentA }] }));
    nextUpdate(scheduler);
    await model.refresh('s1');
    expect(data.getSnapshot().total).toBe(8);
    expect(data.getSnapshot().agents).toBe(held);
    // A new agent, or a field that changed, makes a new list.
    model.receiveBatch(
      batch(8, 4, {
        agents: [
          { ...agentA, model: 'claude' },
          { uuid: 'agent-b', parent: 'agent-a', firstEnvelope: 9 },
        ],
      }),
    );
    nextUpdate(scheduler);
    expect(data.getSnapshot().agents).not.toBe(held);
    expect(data.getSnapshot().agents.map((a) => [a.uuid, a.model])).toEqual([
      ['agent-a', 'claude'],
      ['agent-b', undefined],
    ]);
  });

  it('fetches blocks and findings only while a view watches them, then only what changed', async () => {
    const main = {
      blocks: [
        { block: block(0, { status: 'complete' }), revision: 1 },
        { block: block(1), revision: 2 },
      ],
      diagnostics: [diagnostic(0), diagnostic(1)],
    };
    const { model, scheduler, callsOf } = setup(main);
    model.applySessionsChanged([summary('s1')]);
    const data = model.data('s1');
    model.receiveBatch(batch(0, 4, { blockRevision: 2, diagnosticCount: 2 }));
    nextUpdate(scheduler);
    await settle();
    // Nobody shows them: batches alone fetch nothing.
    expect(callsOf('getBlockChanges')).toHaveLength(0);
    expect(callsOf('getDiagnosticsSince')).toHaveLength(0);
    expect(data.getSnapshot()).toMatchObject({ loaded: true, blocksLoaded: false, diagnosticsLoaded: false });

    const stopBlocks = model.watch('s1', 'blocks');
    const stopFindings = model.watch('s1', 'diagnostics');
    await settle();
    expect(data.getSnapshot().blocks.map((b) => `${b?.id}:${b?.status}`)).toEqual(['0:complete', '1:open']);
    expect(data.getSnapshot().diagnostics.map((d) => d.seq)).toEqual([0, 1]);
    expect(data.getSnapshot()).toMatchObject({ blocksLoaded: true, diagnosticsLoaded: true });

    // Main moves on: block 1 changes, block 2 opens, a finding is added.
    main.blocks[1] = { block: block(1, { status: 'complete', length: 9 }), revision: 3 };
    main.blocks.push({ block: block(2), revision: 4 });
    main.diagnostics.push(diagnostic(2));
    model.receiveBatch(batch(4, 2, { blockRevision: 4, diagnosticCount: 3 }));
    nextUpdate(scheduler);
    scheduler.advance(ON_DEMAND_INTERVAL_MS);
    await settle();
    expect(callsOf('getBlockChanges').map((c) => (c.arg as { since: number }).since)).toEqual([0, 2]);
    expect(callsOf('getDiagnosticsSince').map((c) => (c.arg as { from: number }).from)).toEqual([0, 2]);
    expect(data.getSnapshot().blocks.map((b) => `${b?.id}:${b?.status}:${b?.length}`)).toEqual([
      '0:complete:1',
      '1:complete:9',
      '2:open:1',
    ]);
    expect(data.getSnapshot().diagnostics.map((d) => d.seq)).toEqual([0, 1, 2]);

    // Unwatched again: later batches fetch nothing.
    stopBlocks();
    stopFindings();
    main.blocks.push({ block: block(3), revision: 5 });
    model.receiveBatch(batch(6, 1, { blockRevision: 5, diagnosticCount: 3 }));
    nextUpdate(scheduler);
    scheduler.advance(ON_DEMAND_INTERVAL_MS);
    await settle();
    expect(callsOf('getBlockChanges')).toHaveLength(2);
  });

  it('fetches at most once per interval while batches keep coming, one request at a time', async () => {
    const main = { blocks: [{ block: block(0), revision: 1 }] };
    const { model, scheduler, callsOf } = setup(main);
    model.applySessionsChanged([summary('s1')]);
    model.watch('s1', 'blocks');
    await settle();
    for (let i = 1; i <= 30; i++) {
      main.blocks[0] = { block: block(0, { length: i }), revision: i + 1 };
      model.receiveBatch(batch(i, 1, { blockRevision: i + 1 }));
      scheduler.frame();
      scheduler.advance(16);
      await settle();
    }
    // 30 frames of 16 ms: 480 ms, so the first fetch and at most 480 / interval more.
    expect(callsOf('getBlockChanges').length).toBeLessThanOrEqual(1 + Math.ceil(480 / ON_DEMAND_INTERVAL_MS));
    scheduler.advance(ON_DEMAND_INTERVAL_MS);
    await settle();
    expect(model.data('s1').getSnapshot().blocks[0]?.length).toBe(30);
  });

  it('takes the whole list of findings again when main replaced it (the inline mode changed)', async () => {
    const main = { diagnostics: [diagnostic(0), diagnostic(1), diagnostic(2)], resets: 0 };
    const { model, scheduler } = setup(main);
    model.applySessionsChanged([summary('s1')]);
    model.watch('s1', 'diagnostics');
    model.receiveBatch(batch(0, 1, { diagnosticCount: 3 }));
    nextUpdate(scheduler);
    await settle();
    expect(model.data('s1').getSnapshot().diagnostics).toHaveLength(3);
    main.diagnostics = [{ ...diagnostic(0), rule: 'inline.other' }];
    main.resets = 1;
    model.receiveBatch(batch(1, 1, { diagnosticCount: 1, diagnosticResets: 1 }));
    nextUpdate(scheduler);
    scheduler.advance(ON_DEMAND_INTERVAL_MS);
    await settle();
    expect(
      model
        .data('s1')
        .getSnapshot()
        .diagnostics.map((d) => d.rule),
    ).toEqual(['inline.other']);
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
    model.applyLiveStatus({
      sessionId: 's1',
      state: 'streaming',
      leg: 0,
      bytes: 10,
      envelopes: 2,
      elapsedMs: 100,
      envelopesPerSecond: 20,
      bytesPerSecond: 100,
      idleMs: 0,
    });
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
    });
    const model = new SessionsModel({
      service: fake.service,
      scheduler,
      reportError: (c, e) => errors.push(`${c}: ${(e as Error).message}`),
    });
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
    const main = {
      blocks: [
        { block: block(0), revision: 1 },
        { block: block(1), revision: 2 },
      ],
      diagnostics: [diagnostic(30)],
    };
    const { model, scheduler } = setup(main);
    model.applySessionsChanged([summary('s1')]);
    const data = model.data('s1');
    model.watch('s1', 'blocks');
    model.watch('s1', 'diagnostics');
    await settle();
    model.receiveBatch(
      batch(0, 40, {
        blockRevision: 2,
        diagnosticCount: 1,
        agents: [{ uuid: 'agent-b', parent: null, firstEnvelope: 3 }],
      }),
    );
    nextUpdate(scheduler);
    await settle();
    expect(model.timeline('s1').getSnapshot().total).toBe(40);
    expect(data.getSnapshot().blocks).toHaveLength(2);

    // A replay seeks back to 9 envelopes: main starts the session over and plays 9 again.
    main.blocks = [{ block: block(0), revision: 1 }];
    main.diagnostics = [];
    model.receiveBatch(batch(0, 9, { generation: 1, blockRevision: 1 }));
    nextUpdate(scheduler);
    scheduler.advance(ON_DEMAND_INTERVAL_MS);
    await settle();
    const snapshot = data.getSnapshot();
    expect(snapshot.total).toBe(9);
    expect(snapshot.blocks.filter(Boolean)).toHaveLength(1);
    expect(snapshot.diagnostics).toEqual([]);
    expect(snapshot.agents.map((a) => a.uuid)).not.toContain('agent-b');
    expect(model.timeline('s1').getSnapshot().total).toBe(9);
    expect(model.timeline('s1').seqAt(9)).toBeUndefined();

    // A batch of the old generation arriving late changes nothing.
    model.receiveBatch(batch(9, 31));
    nextUpdate(scheduler);
    expect(data.getSnapshot().total).toBe(9);
    // Stepping on continues from the new start.
    model.receiveBatch(batch(9, 1, { generation: 1 }));
    nextUpdate(scheduler);
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
