import { fixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';

/**
 * A `curl -N` capture has no receive times. Replayed, it plays one event at a time at a pace
 * (events per second, the speed multiplying it) instead of finishing at once, so pause, step
 * and seek have something to work on; its lanes are drawn in order of arrival.
 */
test('a capture without timing replays at a chosen pace, and its lanes fall back to sequence order', async ({
  app,
  timeline,
  replay,
}) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  const total = await timeline.total();
  expect(total).toBe(173);
  await timeline.showLanes();
  await expect(timeline.lanesView).toHaveAttribute('data-axis', 'sequence');
  await expect(timeline.page.getByTestId('lanes-axis-note')).toBeVisible();
  await app.screenshot('13-lanes-sequence');
  await timeline.showTable();

  await app.replayButton.click();
  await expect(replay.controls).toHaveAttribute('data-playing', 'true');
  await expect(replay.speed.locator('option:checked')).toHaveText('10 ev/s');
  // At 10 events per second, 1.5 s in it is far from the end (at once, it was over by then).
  await expect.poll(async () => (await replay.progress()).position).toBeGreaterThan(1);
  await app.page.waitForTimeout(1500);
  expect((await replay.progress()).position).toBeLessThan(100);
  await expect(replay.finished).toHaveCount(0);

  await replay.pause();
  const paused = await replay.statePosition();
  await app.page.waitForTimeout(500);
  expect(await replay.statePosition()).toBe(paused);
  await replay.step();
  await expect(replay.controls).toHaveAttribute('data-position', String(paused + 1));
  await replay.seekTo(100);
  await expect.poll(() => timeline.total()).toBe(100);
  await app.screenshot('13-replay-paced');

  // Faster: 200 events per second plays the rest in well under the 7 s it takes at 10.
  await replay.setSpeed('200 ev/s');
  await replay.play();
  await expect(replay.finished).toBeVisible({ timeout: 5000 });
  await expect.poll(() => timeline.total()).toBe(total);
  await app.expectNoErrors();
});
