import { expect, test } from './fixtures';

/**
 * At 1024 px the Diagnostics view stacks its findings above the charts. A session with two
 * findings takes the room its findings need, and the charts follow right after, instead of
 * half the screen kept empty for findings that are not there.
 */
test('at 1024 px the charts follow the findings without an empty gap', async ({ app, connect, diagnostics, page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  await app.show('diagnostics');
  await expect(diagnostics.groups.first()).toBeVisible();
  await expect(diagnostics.frameSizeChart).toBeVisible();
  const findingsBottom = await diagnostics.groups.last().evaluate((g) => g.getBoundingClientRect().bottom);
  const chartsTop = await diagnostics.charts.evaluate((c) => c.getBoundingClientRect().top);
  expect(chartsTop - findingsBottom).toBeLessThan(40);
  await app.screenshotSizesAndThemes('25-narrow-diagnostics');
});

/**
 * The charts' code loads on first use and a chart is drawn only once its room is measured:
 * until then the room is taken and says "drawing…", never a blank pane for half a second.
 */
test('the charts, or their sized placeholder, are there one frame after the tab is opened', async ({
  app,
  connect,
  diagnostics,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  const first = await diagnostics.firstChartOneFrameAfter(app.tab('diagnostics'));
  expect(first.shows).not.toBe('nothing');
  expect(first.height).toBeGreaterThanOrEqual(100);
  await expect(diagnostics.frameSizeChart.locator('svg.recharts-surface')).toBeVisible();
  await expect(diagnostics.frameSizeChart.getByText('drawing…')).toBeHidden();
  // A second visit finds the code loaded: the same holds.
  await app.show('timeline');
  const again = await diagnostics.firstChartOneFrameAfter(app.tab('diagnostics'));
  expect(again.shows).not.toBe('nothing');
});
