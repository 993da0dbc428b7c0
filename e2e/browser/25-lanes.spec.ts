import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * The lanes of a frontend-tool run answered by hand: the human's think time between the legs
 * is drawn narrow with its length instead of taking the axis, and a line marks where the
 * continuation leg started.
 */
test('lanes compress the idle wait for an answer and mark where each leg starts', async ({
  app,
  connect,
  timeline,
  tools,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'frontend-tools', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('awaiting tools');
  // The human thinks for a few seconds.
  await page.waitForTimeout(3500);
  await tools.quickAnswer('toolu_demo_confirm', 'yes');
  await app.expectState('done');
  await timeline.showLanes();
  await expect(timeline.lanesView).toHaveAttribute('data-legs', '2');
  await expect(timeline.lanesView).toHaveAttribute('data-idle-gaps', '1');
  await app.screenshotSizesAndThemes('25-lanes-legs');
});

/** At full zoom a long stream's marks overlap: each lane is a density strip, not one solid bar. */
test('lanes of a long stream at full zoom are density strips', async ({ app, connect, timeline, page }) => {
  await connect.chooseDemo({ scenario: 'long-answer', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done', 60_000);
  await timeline.showLanes();
  await expect(page.getByTestId(TEST_IDS.lanesCanvas)).toHaveAttribute('data-dense-lanes', '1');
  await app.screenshotSizesAndThemes('25-lanes-density');
});
