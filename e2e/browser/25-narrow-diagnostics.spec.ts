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
