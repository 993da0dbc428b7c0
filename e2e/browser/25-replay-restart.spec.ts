import { join } from 'node:path';
import { PROJECT_SAMPLES_DIR } from '../../src-main/services/samples/sample-commands';
import { REPLAY_IDS } from '../../src-renderer/views/replay/testids';
import { expect, test } from './fixtures';

/**
 * Restart plays the same replay session again (it used to open a new, identically named
 * session each time); Loop loops in a replay restarted so; and while a loop empties and
 * refills the session, the detail pane of a selected row never shows an internal error
 * ("Session … has no envelope 18"): it waits for the row to be delivered again.
 */
test('restart reuses the replay session, and a loop keeps the selected row’s detail', async ({
  app,
  replay,
  timeline,
  page,
}) => {
  test.setTimeout(180_000);
  await app.openFiles(join(PROJECT_SAMPLES_DIR, 'multi-agent.recording'));
  await app.expectState('done');
  const total = await timeline.total();
  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  await replay.holdStill();
  await replay.setSpeed('fast');
  const replays = app.sessionItem(/^Replay of multi-agent/);
  for (let pass = 0; pass < 3; pass++) {
    await replay.play();
    await expect(replay.finished).toBeVisible();
    await replay.restartButton.click();
    await expect(replay.controls).toHaveAttribute('data-position', '0');
    await expect(replay.controls).toHaveAttribute('data-playing', 'false');
    await expect.poll(() => timeline.total()).toBe(0);
  }
  await expect(replays).toHaveCount(1);
  await expect(app.sessionItems).toHaveCount(2);

  // Loop in the restarted replay: it starts over, pass after pass.
  const loop = page.getByTestId(REPLAY_IDS.loop);
  await loop.click();
  await expect(loop).toHaveAttribute('aria-pressed', 'true');
  await replay.play();
  await expect
    .poll(async () => Number(await loop.getAttribute('data-loops')), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);

  // A row selected during the loop: its detail waits while the pass refills the session.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { detailErrors: string[] }).detailErrors = seen;
    new MutationObserver(() => {
      const pane = document.querySelector('[data-testid="detail-pane"]');
      const error = pane?.querySelector('.inline-error');
      if (error) seen.push(error.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await expect(timeline.row(18)).toBeVisible({ timeout: 15_000 });
  await timeline.row(18).click();
  await expect(timeline.detailPane).toBeVisible();
  // Two more passes empty and refill the session under the selected row.
  const loops = async (): Promise<number> => Number(await loop.getAttribute('data-loops'));
  const selectedAt = await loops();
  await expect.poll(loops, { timeout: 30_000 }).toBeGreaterThanOrEqual(selectedAt + 2);
  await loop.click();
  await expect(replay.finished).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => timeline.total()).toBe(total);
  await expect(timeline.envelopeView).toBeVisible();
  await app.screenshot('25-replay-loop-detail');
  expect(await page.evaluate(() => (window as unknown as { detailErrors: string[] }).detailErrors)).toEqual([]);
  await app.expectNoErrors();
});
