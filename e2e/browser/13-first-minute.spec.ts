import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * The first minute: the first screen says in one line what the user is looking at and offers
 * the conversation (the Blocks view) of the demo run; the detail pane waits for a selection.
 */

test('the first screen explains itself in one line and offers the Blocks view of the demo run', async ({
  app,
  timeline,
  blocks,
  page,
}) => {
  await app.open({ autoconnect: true });
  await app.expectView('timeline');
  const intro = page.getByTestId('intro-line');
  await expect(intro).toContainText('A live run of the built-in demo agent');
  await expect(timeline.detailPane).toHaveCount(0);
  await app.expectState(ENDED, 60_000);
  await app.screenshotSizesAndThemes('13-first-screen');

  await page.getByTestId('intro-blocks').click();
  await app.expectView('blocks');
  await expect(blocks.blocks.first()).toBeVisible();
  await app.screenshotSizesAndThemes('13-first-blocks');

  // Dismissed, it stays away.
  await app.show('timeline');
  await intro.getByRole('button', { name: 'Dismiss the introduction' }).click();
  await expect(intro).toHaveCount(0);
  await page.reload();
  await app.expectView('timeline');
  await expect(page.getByTestId('intro-line')).toHaveCount(0);
});

test('the tour runs on the first start only: a later start with no session opens on an empty app', async ({
  app,
  page,
}) => {
  await app.open({ autoconnect: true });
  await app.expectState(ENDED, 60_000);
  await expect(app.sessionItems).toHaveCount(1);
  await page.getByTestId(TEST_IDS.sessionClose).click();
  await expect(app.sessionItems).toHaveCount(0);
  // A new window of a later start: what the browser keeps per window is gone, the preferences are not.
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  await app.expectView('connect');
  await page.waitForTimeout(1500);
  await expect(app.sessionItems).toHaveCount(0);
});

test('screenshots of the new table features in both themes and sizes', async ({ app, connect, timeline, page }) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await timeline.select(22);
  await page.getByTestId('column-chooser').locator('summary').click();
  await app.screenshotSizesAndThemes('13-columns-chooser');
  await page.keyboard.press('Escape');
  await timeline.filterText.fill('Eiffel');
  await expect(timeline.row(23)).toBeVisible();
  await app.screenshotSizesAndThemes('13-search');
});
