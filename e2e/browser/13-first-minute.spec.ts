import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

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
