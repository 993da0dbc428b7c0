import { describe, expect, it } from 'vitest';
import { createFakeService, settle, summary } from '../testing/fake-service';
import { batch, block, detail, diagnostic, nextUpdate, setup } from '../testing/sessions-setup';
import { createManualScheduler } from './scheduler';
import { ON_DEMAND_INTERVAL_MS } from './session-entry';
import { SessionsModel } from './sessions';

describe('sessions model: blocks, findings and details fetched on demand', () => {
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
});
