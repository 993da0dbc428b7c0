import { fixturePath } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * The timeline's filter box speaks the filter language (docs/filters.md): typing an
 * expression filters the rows, a bad one shows its error at the character, completion offers
 * fields and values, and every picker writes its condition into the box.
 */
test('typing an expression filters rows; a bad one shows the error at the character', async ({
  app,
  timeline,
  page,
}) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  await expect(timeline.count).toHaveText('173 envelopes');

  // Fields the renderer keeps (agent names as shown, type, final) filter at once.
  await timeline.filter('agent == "sub 1" && type == "tool_call" && final');
  await expect(timeline.count).toHaveText(/^2 of 173 envelopes/);
  await expect(timeline.rows).toHaveCount(2);
  for (const seq of [39, 50]) await expect(timeline.row(seq)).toBeVisible();

  // Other fields are evaluated by main: tool names, blocks, findings, text.
  await timeline.filter('name in ["add", "multiply"] && block.kind == "tool_result"');
  await expect(timeline.count).toHaveText(/^2 of 173 envelopes/);
  await timeline.filter('finding.rule == "sse.oversize-line"');
  await expect(timeline.count).toHaveText(/^4 of 173 envelopes/);

  // A typo: the error names it, with a caret under it; the last valid filter stays applied.
  await timeline.filter('type == "text" && nmae == "add"');
  await expect(timeline.filterError).toBeVisible();
  await expect(timeline.filterError).toContainText("Unknown field 'nmae'; did you mean 'name'?");
  await expect(timeline.filterError).toHaveAttribute('data-at', '18');
  await expect(timeline.filterError.locator('.filter-error-caret')).toHaveText(`${' '.repeat(18)}^^^^`);
  await expect(timeline.filterText).toHaveAttribute('aria-invalid', 'true');
  await expect(timeline.count).toHaveText(/^4 of 173 envelopes/);
  // The count stays on one line, the filter box's, at every usual window width: at 1280 px the
  // bar wrapped and took it to a second line. The box keeps room to read an expression in (a
  // narrower window wraps the pickers instead), and from 1440 px the whole bar is one line.
  for (const width of [1024, 1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await app.screenshot(`09-filter-count-${width}`);
    const layout = await timeline.countLayout();
    expect(layout.lines, `at ${width} px`).toBeCloseTo(1, 1);
    expect(layout.besideBox, `at ${width} px`).toBe(true);
    expect(layout.boxWidth, `at ${width} px`).toBeGreaterThanOrEqual(300);
    if (width >= 1440) expect(layout.barRows, `at ${width} px`).toBe(1);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await app.screenshot('09-filter-error');
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('09-filter-error-1024-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });

  await timeline.filter('');
  await expect(timeline.count).toHaveText('173 envelopes');
  await expect(timeline.filterError).toHaveCount(0);
  await app.expectNoErrors();
});

test('completion offers fields, then operators, then the values the session has', async ({ app, timeline }) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  await timeline.filterText.click();
  await timeline.filterText.pressSequentially('ag');
  await expect(timeline.filterCompletions.getByRole('option')).toHaveText([/^agent/]);
  await timeline.filterText.press('Tab');
  await expect(timeline.filterText).toHaveValue('agent ');
  await expect(timeline.filterCompletions.getByRole('option').first()).toHaveText('==');
  await timeline.filterText.press('Tab');
  await expect(timeline.filterText).toHaveValue('agent == ');
  await expect(timeline.filterCompletions.getByRole('option')).toHaveText(['main', 'sub 1', 'sub 2']);
  await timeline.filterText.press('ArrowDown');
  await app.screenshot('09-filter-completion');
  await timeline.filterText.press('Enter');
  await expect(timeline.filterText).toHaveValue('agent == "sub 1" ');
  // After a complete condition the list offers && and ||; close it and apply.
  await expect(timeline.filterCompletions.getByRole('option')).toHaveText(['&&', '||']);
  await timeline.filterText.press('Escape');
  await timeline.filterText.press('Enter');
  await expect(timeline.count).toHaveText(/^\d+ of 173 envelopes/);
  const sub1 = await timeline.visibleCount();
  expect(sub1).toBeGreaterThan(10);
  expect(sub1).toBeLessThan(173);
});

test('every picker writes its condition into the box, and reads it back from there', async ({
  app,
  timeline,
  page,
}) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState('done');
  await page.getByTestId(TEST_IDS.filterAgent).locator('summary').click();
  await timeline.agentOptions.filter({ hasText: 'sub 2' }).locator('input').check();
  await expect(timeline.filterText).toHaveValue('agent == "sub 2"');
  await timeline.agentOptions.filter({ hasText: 'sub 1' }).locator('input').check();
  await expect(timeline.filterText).toHaveValue('agent in ["sub 2", "sub 1"]');
  await page.getByTestId(TEST_IDS.filterFinal).selectOption('final');
  await expect(timeline.filterText).toHaveValue('agent in ["sub 2", "sub 1"] && final');
  await page.getByTestId(TEST_IDS.filterSeverity).selectOption('warning');
  await expect(timeline.filterText).toHaveValue(
    'agent in ["sub 2", "sub 1"] && final && finding.severity >= "warning"',
  );
  await expect(timeline.count).toHaveText(/^\d+ of 173 envelopes/);
  await page.getByTestId(TEST_IDS.filterSeverity).selectOption('');
  await expect(timeline.filterText).toHaveValue('agent in ["sub 2", "sub 1"] && final');
  await expect(timeline.rows.first()).toBeVisible();
  await page.getByTestId(TEST_IDS.filterAgent).locator('summary').click();
  await app.screenshot('09-filter-pickers');

  // Typed by hand, the same condition sets the picker.
  await timeline.filter('type == "thinking"');
  await page.getByTestId(TEST_IDS.filterType).locator('summary').click();
  await expect(
    page.getByTestId(`${TEST_IDS.filterType}-option`).filter({ hasText: 'thinking' }).locator('input'),
  ).toBeChecked();
  await expect(page.getByTestId(TEST_IDS.filterAgent).locator('summary')).toHaveText('Agents: all');
});
