import { expect, test } from './fixtures';

/**
 * A newcomer's first minute: connect to the demo agent's sub-agent scenario, watch the three
 * agents' envelopes arrive in the table and the lanes, then read the conversations.
 */
test('a newcomer connects to the demo agent and watches a parent and two sub-agents stream', async ({
  app,
  connect,
  timeline,
  blocks,
}) => {
  await app.expectView('connect');
  await connect.chooseDemo({ scenario: 'subagents', format: 'json' });
  await connect.run();
  await expect(app.sessionTitle).toHaveText(/Two sub-agents/);

  // Rows arrive while the run streams (the demo paces it like a real model).
  await expect(app.sessionState).toHaveText(/streaming|connecting/);
  await timeline.expectTotalAtLeast(1);
  const early = await timeline.total();
  await expect(timeline.rows.first()).toBeVisible();
  await timeline.expectTotalAtLeast(early + 5);
  await app.screenshot('02-timeline-streaming');

  // The table's agent filter offers the parent and both sub-agents.
  await expect(timeline.agentOptions).toHaveCount(3, { timeout: 15_000 });

  await timeline.showLanes();
  await expect(timeline.lanes).toHaveCount(3, { timeout: 15_000 });
  await app.expectState('done');
  const total = await timeline.total();
  // Every envelope sits in exactly one lane (the closing [DONE] in the root agent's). The
  // lanes redraw a few times a second: the last rows may land a moment after the state.
  await expect.poll(async () => (await timeline.laneCounts()).reduce((sum, l) => sum + l.count, 0)).toBe(total);
  const lanes = await timeline.laneCounts();
  expect(lanes.map((l) => l.count).every((n) => n > 0)).toBe(true);
  expect(new Set(lanes.map((l) => l.agent)).size).toBe(3);
  await app.screenshot('02-lanes');

  await timeline.showTable();
  await app.show('blocks');
  await blocks.expectNoneLive();
  expect((await blocks.counts()).agents).toBe(3);
  // The two sub-agents' threads sit inside the parent's, where it spawned them.
  await expect(blocks.threads).toHaveCount(3);
  await expect(blocks.nestedThreads()).toHaveCount(2);
  for (const child of await blocks.nestedThreads().all()) {
    await expect(blocks.ofKind('text', child).first()).toBeVisible();
    const statuses = await blocks
      .ofKind('text', child)
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status')));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 'complete')).toBe(true);
  }
  await expect(blocks.view).toContainText('330 m');
  await expect(blocks.view).toContainText('1,082.7');
  await app.expectNoErrors();
  await app.screenshot('02-blocks');
});
