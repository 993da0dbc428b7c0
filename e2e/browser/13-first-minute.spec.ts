import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * The first minute: the first screen says in one line what the user is looking at and offers
 * the conversation (the Blocks view) of the demo run; the detail pane waits for a selection.
 */
async function shoot(app: { screenshot(name: string): Promise<void> }, page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await app.screenshot(`${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the first screen explains itself in one line and offers the Blocks view of the demo run', async ({ app, timeline, blocks, page }) => {
  await app.open({ autoconnect: true });
  await app.expectView('timeline');
  const intro = page.getByTestId('intro-line');
  await expect(intro).toContainText('A live run of the built-in demo agent');
  await expect(timeline.detailPane).toHaveCount(0);
  await app.expectState(ENDED, 60_000);
  await shoot(app, page, '13-first-screen');

  await page.getByTestId('intro-blocks').click();
  await app.expectView('blocks');
  await expect(blocks.blocks.first()).toBeVisible();
  await shoot(app, page, '13-first-blocks');

  // Dismissed, it stays away.
  await app.show('timeline');
  await intro.getByRole('button', { name: 'Dismiss the introduction' }).click();
  await expect(intro).toHaveCount(0);
  await page.reload();
  await app.expectView('timeline');
  await expect(page.getByTestId('intro-line')).toHaveCount(0);
});

test('screenshots of the new table features in both themes and sizes', async ({ app, connect, timeline, page }) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await timeline.select(22);
  await page.getByTestId('column-chooser').locator('summary').click();
  await shoot(app, page, '13-columns-chooser');
  await page.keyboard.press('Escape');
  await timeline.filterText.fill('Eiffel');
  await expect(timeline.row(23)).toBeVisible();
  await shoot(app, page, '13-search');
});
