import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/** Polish found in review: each defect as the user saw it, measured. */

test('at 1024 px the session header of a live run with every action stays on one line', async ({
  app,
  connect,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.rename('A session name long enough to need the whole header and then some more of it');
  const row = page.getByTestId(TEST_IDS.sessionHeader).locator('.session-header-row');
  const { height } = (await row.boundingBox())!;
  // One line of controls (a button is 24 px high): two would be about 52.
  expect(height).toBeLessThan(36);
  const title = page.locator('.session-title');
  await expect(title).toHaveAttribute('title', /^A session name long enough .* \(double-click to rename\)$/);
  // The name is cut with an ellipsis, not hidden: it keeps some room.
  expect((await title.boundingBox())!.width).toBeGreaterThan(80);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await app.screenshot(`26-header-1024-${scheme}`);
  }
});

test("the demo intro's link reads as a word of its sentence: no gap before the full stop", async ({ app, page }) => {
  await app.open({ autoconnect: true });
  await app.expectView('blocks');
  const link = page.getByTestId(TEST_IDS.introOther);
  await expect(link).toHaveText('Timeline');
  // The gap between the link's last letter and the full stop that follows it.
  const gap = await link.evaluate((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    const word = range.getBoundingClientRect();
    const stop = button.nextSibling!;
    range.selectNodeContents(stop);
    return range.getBoundingClientRect().left - word.right;
  });
  expect(gap).toBeLessThan(1);
  await app.screenshot('26-intro-line');
});

test('in the dark theme the chunk charts draw their grid in the dark palette', async ({
  app,
  connect,
  diagnostics,
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.show('diagnostics');
  await expect(diagnostics.charts).toBeVisible();
  const gridStrokes = () =>
    page
      .locator('.recharts-cartesian-grid line')
      .evaluateAll((lines) => [...new Set(lines.map((line) => line.getAttribute('stroke')))]);
  const themeGrid = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--chart-grid').trim());
  expect(await gridStrokes()).toEqual([await themeGrid()]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator(':root')).toHaveAttribute('data-theme', 'dark');
  const dark = await themeGrid();
  await expect.poll(gridStrokes).toEqual([dark]);
  await app.screenshot('26-charts-dark');
});
