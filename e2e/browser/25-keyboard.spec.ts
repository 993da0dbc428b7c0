import { fixturePath } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * The timeline works from the keyboard without a click first: the rows take the focus when a
 * session opens, the navigation keys move the selection even when nothing has the focus, and
 * the table is an ARIA grid (rows numbered among all rows though only those in view exist,
 * the selected one marked and named as the active descendant).
 */
test('the arrow keys, Home, End and PageDown move in the rows as soon as a session opens', async ({
  app,
  timeline,
  page,
}) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  await expect(timeline.table).toBeFocused();
  await expect(timeline.table).toHaveAttribute('role', 'grid');
  await expect(timeline.table).toHaveAttribute('aria-rowcount', String(173 + 1));
  await expect(timeline.table.locator('[role="row"]').first()).toHaveAttribute('aria-rowindex', '1');

  await page.keyboard.press('ArrowDown');
  await expect(timeline.row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(timeline.row(0)).toHaveAttribute('aria-rowindex', '2');
  const id = await timeline.row(0).getAttribute('id');
  expect(id).toBeTruthy();
  await expect(timeline.table).toHaveAttribute('aria-activedescendant', id!);

  await page.keyboard.press('End');
  await expect(timeline.row(172)).toHaveAttribute('aria-selected', 'true');
  await expect(timeline.row(172)).toBeInViewport();
  await expect(timeline.row(172)).toHaveAttribute('aria-rowindex', '174');
  await page.keyboard.press('Home');
  await expect(timeline.row(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('PageDown');
  await expect(timeline.selectedRow()).toHaveCount(1);
  const paged = Number(await timeline.selectedRow().getAttribute('data-seq'));
  expect(paged).toBeGreaterThan(10);
  await expect(timeline.row(paged)).toBeInViewport();
  await expect(timeline.row(0)).toHaveAttribute('aria-selected', 'false');

  // Focus lost to nothing (a click on the status line's text, not its menu): the keys still move in the rows.
  await page.getByTestId(TEST_IDS.statusEnvelopes).click();
  await expect(timeline.table).not.toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(timeline.row(paged + 1)).toHaveAttribute('aria-selected', 'true');
  await expect(timeline.table).toBeFocused();
  await app.screenshot('25-keyboard');
  await app.expectNoErrors();
});
