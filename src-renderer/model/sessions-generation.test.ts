import { describe, expect, it } from 'vitest';
import { settle, summary } from '../testing/fake-service';
import { batch, block, diagnostic, nextUpdate, setup } from '../testing/sessions-setup';
import { ON_DEMAND_INTERVAL_MS } from './session-entry';

describe('sessions model: a session started over', () => {
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
