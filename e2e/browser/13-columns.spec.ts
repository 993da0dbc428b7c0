import { expect, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * The table keeps the columns people came for in view: the detail pane opens only for a
 * selected row and can be closed; narrow layouts drop the least needed columns, never Delta;
 * a column chooser and resizable columns, both remembered.
 */
const header = (page: Page, id: string): Locator => page.locator(`[role="columnheader"].tt-col-${id}`);

/** Ids of the header cells, and whether each lies fully inside the table's box. */
async function headers(page: Page): Promise<{ id: string; inside: boolean; width: number }[]> {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="timeline-table"]')!.getBoundingClientRect();
    return [...document.querySelectorAll('[role="columnheader"]')].map((cell) => {
      const box = cell.getBoundingClientRect();
      const id = [...cell.classList].find((c) => c.startsWith('tt-col-'))!.slice('tt-col-'.length);
      return { id, inside: box.left >= table.left - 1 && box.right <= table.right + 1, width: box.width };
    });
  });
}

test('columns fit at 1440 and 1024 px, with and without the detail pane; chooser and widths are remembered', async ({
  app,
  connect,
  timeline,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);

  // Nothing selected: no detail pane, every column in view.
  await expect(timeline.detailPane).toHaveCount(0);
  let shown = await headers(page);
  expect(shown.map((h) => h.id)).toEqual([
    'seq',
    'time',
    'gap',
    'agent',
    'type',
    'final',
    'delta',
    'bytes',
    'idName',
    'diagnostics',
  ]);
  expect(shown.every((h) => h.inside)).toBe(true);
  await app.screenshot('13-columns-1440-no-selection');

  // Selecting a row opens the pane; the least needed columns give way, Id / name and Diag stay.
  await timeline.select(20);
  await expect(timeline.detailPane).toBeVisible();
  shown = await headers(page);
  expect(shown.every((h) => h.inside)).toBe(true);
  expect(shown.map((h) => h.id)).toEqual(
    expect.arrayContaining(['seq', 'agent', 'type', 'delta', 'idName', 'diagnostics']),
  );
  expect(shown.find((h) => h.id === 'delta')!.width).toBeGreaterThanOrEqual(160);
  await app.screenshot('13-columns-1440-detail');

  // The resize handles are named after their column.
  await expect(header(page, 'type').getByRole('separator')).toHaveAttribute('aria-label', 'Resize the Type column');

  // Closing the pane gives the room back.
  await page.getByTestId('detail-close').click();
  await expect(timeline.detailPane).toHaveCount(0);
  await expect.poll(async () => (await headers(page)).length).toBe(10);

  // The chooser: Esc closes it; a hidden column stays hidden after a reload.
  const chooser = page.getByTestId('column-chooser');
  await chooser.locator('summary').click();
  await expect(chooser).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(chooser).not.toHaveAttribute('open', '');
  await chooser.locator('summary').click();
  await chooser.locator('[data-value="gap"] input').uncheck();
  await page.keyboard.press('Escape');
  await expect(header(page, 'gap')).toHaveCount(0);

  // Resizing a column: dragged wider, and remembered.
  const type = header(page, 'type');
  const before = (await type.boundingBox())!;
  const handle = (await type.getByRole('separator').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 80, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await type.boundingBox())!.width).toBeGreaterThan(before.width + 60);
  const widened = (await type.boundingBox())!.width;

  await page.reload();
  await app.selectSession('Demo agent: Tour · json');
  await expect(header(page, 'type')).toBeVisible();
  await expect(header(page, 'gap')).toHaveCount(0);
  expect(Math.abs((await header(page, 'type').boundingBox())!.width - widened)).toBeLessThan(2);

  // The Agents filter popover closes on Esc too.
  const agents = page.getByTestId('filter-agent');
  await agents.locator('summary').click();
  await expect(agents).toHaveAttribute('open', '');
  await page.keyboard.press('Escape');
  await expect(agents).not.toHaveAttribute('open', '');

  // 1024 × 700: the content column stays, and Time and Agent (what a multi-agent debugger needs most) with it.
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(async () => (await headers(page)).every((h) => h.inside)).toBe(true);
  await timeline.select(21);
  await expect.poll(async () => (await headers(page)).every((h) => h.inside)).toBe(true);
  shown = await headers(page);
  expect(shown.map((h) => h.id)).toEqual(expect.arrayContaining(['seq', 'time', 'agent', 'type', 'delta']));
  expect(shown.find((h) => h.id === 'delta')!.width).toBeGreaterThanOrEqual(160);
  await app.screenshot('13-columns-1024-detail');
  await app.expectNoErrors();
});
