import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * The first start opens the tour on its conversation (Blocks), not on a table of delta
 * fragments ("The user wan", "ts a tour. I"); one line says what the view shows and leads to
 * the envelopes behind it; the detail pane waits for a selection.
 */
test('the first start opens the tour on its conversation, with one line leading to its envelopes', async ({
  app,
  timeline,
  blocks,
  page,
}) => {
  await app.open({ autoconnect: true });
  await app.expectView('blocks');
  const intro = page.getByTestId(TEST_IDS.introLine);
  await expect(intro).toContainText('A live run of the built-in demo agent: the conversation');
  await expect(blocks.blocks.first()).toBeVisible();
  await app.expectState(ENDED, 60_000);
  await app.screenshotSizesAndThemes('25-first-view');

  await page.getByTestId(TEST_IDS.introOther).click();
  await app.expectView('timeline');
  await expect(intro).toContainText('one row per envelope');
  await expect(timeline.detailPane).toHaveCount(0);
  await app.screenshotSizesAndThemes('25-first-view-timeline');

  // Dismissed, it stays away on both views.
  await intro.getByRole('button', { name: 'Dismiss the introduction' }).click();
  await expect(intro).toHaveCount(0);
  await page.reload();
  await app.expectView('timeline');
  await expect(page.getByTestId(TEST_IDS.introLine)).toHaveCount(0);
  await app.show('blocks');
  await expect(page.getByTestId(TEST_IDS.introLine)).toHaveCount(0);
});
