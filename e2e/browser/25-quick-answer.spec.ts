import { TOOL_IDS } from '../../src-renderer/views/tools/testids';
import { expect, test } from './fixtures';

/**
 * A run paused on one frontend tool: its Yes answers and sends at once — the continuation
 * streams as the next leg without a second click on Send.
 */
test('Yes on a one-tool prompt sends the answer at once', async ({ app, connect, timeline, tools }) => {
  await connect.chooseDemo({ scenario: 'frontend-tools', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('awaiting tools');
  const paused = await timeline.total();
  await expect(tools.tool('toolu_demo_confirm').getByTestId(`${TOOL_IDS.quickAnswer}-yes`)).toHaveAttribute(
    'title',
    'Answer “yes” and send',
  );
  await app.screenshotSizesAndThemes('25-quick-answer');
  await tools.quickAnswer('toolu_demo_confirm', 'yes');
  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await timeline.expectTotalAtLeast(paused + 3);
  await app.expectState('done');
  await expect(app.page.getByText('2 legs')).toBeVisible();
});
