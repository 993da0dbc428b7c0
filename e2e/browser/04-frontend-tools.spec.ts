import { FORMATS } from '../../src-main/services/demo-agent/script';
import { expect, test } from './fixtures';

/**
 * The demo agent's frontend-tools run pauses on `user_confirm`; answering it in the prompt
 * sends the result through main and the continuation streams into the same session as a new
 * leg — in every wire format the upstream server speaks.
 */
for (const format of FORMATS) {
  test(`answer a user_confirm prompt in ${format} and watch the continuation leg stream in`, async ({
    app,
    connect,
    timeline,
    blocks,
    tools,
  }) => {
    await connect.chooseDemo({ scenario: 'frontend-tools', format, pace: 'fast' });
    await connect.run('awaiting tools');

    await expect(tools.prompt).toBeVisible();
    await expect(tools.tools).toHaveCount(1);
    await expect(tools.tool('toolu_demo_confirm')).toContainText('user_confirm');
    await expect(tools.messages).toHaveText('The product is 84. Save the report?');
    const paused = await timeline.total();
    if (format === 'json') await app.screenshot('04-tools-prompt');

    await tools.quickAnswer('toolu_demo_confirm', 'yes');

    // The continuation is a second leg of the same session, streamed at the demo's own pace.
    await expect(app.sessionItems).toHaveCount(1);
    await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
    await timeline.expectTotalAtLeast(paused + 3);
    await app.expectState('done');
    await expect(app.page.getByText('2 legs')).toBeVisible();

    await app.show('blocks');
    await blocks.expectNoneLive();
    await expect(blocks.legDividers.filter({ hasText: 'leg 1' })).toContainText('continuation of the paused run');
    await expect(blocks.view).toContainText('Confirmed — the report is saved. 12 × 7 = 84.');
    await app.expectNoErrors();
    if (format === 'json') await app.screenshot('04-blocks-continuation');
  });
}
