import { fixturePath } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * The filter box's keys: Enter applies what the box says unless the user moved into the
 * completion list with the arrow keys, even when the list opened by itself after typing or
 * pasting; then the box, the pickers and the rows agree at once, and the rows have the focus.
 * Escape closes the list and never erases the expression.
 */
test('Enter applies a typed or pasted expression instead of taking a suggestion', async ({ app, timeline, page }) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  await expect(timeline.count).toHaveText('173 envelopes');

  // Typed: after the closing quote the list offers && and ||; Enter applies.
  await timeline.filterText.click();
  await timeline.filterText.pressSequentially('type == "tool_call"');
  await expect(timeline.filterCompletions.getByRole('option')).toHaveText(['&&', '||']);
  await timeline.filterText.press('Enter');
  await expect(timeline.filterText).toHaveValue('type == "tool_call"');
  await expect(timeline.filterCompletions).toHaveCount(0);
  await expect(timeline.count).toHaveText(/^\d+ of 173 envelopes$/);
  const toolCalls = await timeline.visibleCount();
  // The rows have the focus: the arrow keys move in them.
  await expect(timeline.table).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(timeline.selectedRow()).toHaveCount(1);

  // Pasted over the old expression: Enter applies it, and box, pickers and rows agree at once.
  await timeline.filterText.click();
  await timeline.filterText.press('ControlOrMeta+a');
  await page.keyboard.insertText('agent == "sub 1"');
  await timeline.filterText.press('Enter');
  await expect(timeline.filterText).toHaveValue('agent == "sub 1"');
  await expect(page.getByTestId(TEST_IDS.filterAgent).locator('summary')).toHaveText('Agents: 1');
  await expect(page.getByTestId(TEST_IDS.filterType).locator('summary')).toHaveText('Types: all');
  const sub1 = await timeline.visibleCount();
  expect(sub1).not.toBe(toolCalls);
  for (const row of await timeline.rows.all()) await expect(row).toContainText('sub 1');

  // Escape closes the list, then does nothing more: the expression and its rows stay.
  await timeline.filterText.click();
  await timeline.filterText.press('End');
  await timeline.filterText.press('Space');
  await expect(timeline.filterCompletions).toBeVisible();
  await timeline.filterText.press('Escape');
  await expect(timeline.filterCompletions).toHaveCount(0);
  await timeline.filterText.press('Escape');
  await expect(timeline.filterText).toHaveValue('agent == "sub 1" ');
  await timeline.filterText.press('Escape');
  await expect(timeline.filterText).toHaveValue('agent == "sub 1" ');
  await expect(timeline.count).toHaveText(`${sub1} of 173 envelopes`);

  // Moving into the list with the arrow keys makes Enter take the suggestion.
  await timeline.filterText.press('Backspace');
  await timeline.filterText.press('Space');
  await expect(timeline.filterCompletions.getByRole('option')).toHaveText(['&&', '||']);
  await timeline.filterText.press('ArrowDown');
  await timeline.filterText.press('Enter');
  await expect(timeline.filterText).toHaveValue('agent == "sub 1" || ');
  await app.screenshot('25-filter-keys');
  await app.expectNoErrors();
});
