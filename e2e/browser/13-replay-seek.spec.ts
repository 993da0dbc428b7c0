import { expect, test } from './fixtures';

/**
 * Seeking a paused replay lands exactly on the envelope asked for, forwards and backwards, and
 * every view shows the session as it was at that point: the table, the lanes, the blocks, the
 * diagnostics' charts. Stepping on from a backward seek continues from there.
 */
test('seeking backwards rewinds every view to the envelope asked for', async ({
  app,
  connect,
  timeline,
  blocks,
  diagnostics,
  replay,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  const total = await timeline.total();
  expect(total).toBeGreaterThan(45);

  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  // Paused, or restarted paused if it already ended: it may end between two looks.
  await replay.holdStill();

  await replay.seekTo(40);
  await expect.poll(() => timeline.total()).toBe(40);
  await app.show('blocks');
  const blocksAt40 = (await blocks.counts()).blocks;
  expect(blocksAt40).toBeGreaterThan(1);

  await replay.seekTo(9);
  await expect(replay.position).toHaveText(`9 / ${total}`);
  await app.show('timeline');
  await expect.poll(() => timeline.total()).toBe(9);
  await expect(timeline.row(8)).toBeVisible();
  await expect(timeline.row(9)).toHaveCount(0);
  await timeline.showLanes();
  await expect.poll(async () => (await timeline.laneCounts()).reduce((sum, lane) => sum + lane.count, 0)).toBe(9);
  await timeline.showTable();

  await app.show('blocks');
  await expect.poll(async () => (await blocks.counts()).blocks).toBeLessThan(blocksAt40);
  await app.show('diagnostics');
  await expect(diagnostics.frameSizeChart).toContainText(/n 9 /);

  // Stepping on continues from the rewound position, not from where the replay had been.
  await replay.step();
  await expect(replay.controls).toHaveAttribute('data-position', '10');
  await app.show('timeline');
  await expect.poll(() => timeline.total()).toBe(10);

  // And forwards again, exactly.
  await replay.seekTo(30);
  await expect.poll(() => timeline.total()).toBe(30);
  await app.expectNoErrors();
});
