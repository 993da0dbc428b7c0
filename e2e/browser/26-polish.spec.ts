import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startWebApp } from '../../src-main/web/web-app';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, host, test } from './fixtures';
import { AppPage } from './pages/app-page';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/** Polish found in review: each defect as the user saw it, measured. */

test('at 1024 px the session header of a live run with every action stays on one line', async ({
  app,
  connect,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.rename('A session name long enough to need the whole header and then some more of it');
  const row = page.getByTestId(TEST_IDS.sessionHeader).locator('.session-header-row');
  const { height } = (await row.boundingBox())!;
  // One line of controls (a button is 24 px high): two would be about 52.
  expect(height).toBeLessThan(36);
  const title = page.locator('.session-title');
  await expect(title).toHaveAttribute('title', /^A session name long enough .* \(double-click to rename\)$/);
  // The name is cut with an ellipsis, not hidden: it keeps some room.
  expect((await title.boundingBox())!.width).toBeGreaterThan(80);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await app.screenshot(`26-header-1024-${scheme}`);
  }
});

test("the demo intro's link reads as a word of its sentence: no gap before the full stop", async ({ app, page }) => {
  await app.open({ autoconnect: true });
  await app.expectView('blocks');
  const link = page.getByTestId(TEST_IDS.introOther);
  await expect(link).toHaveText('Timeline');
  // The gap between the link's last letter and the full stop that follows it.
  const gap = await link.evaluate((button) => {
    const range = document.createRange();
    range.selectNodeContents(button);
    const word = range.getBoundingClientRect();
    const stop = button.nextSibling!;
    range.selectNodeContents(stop);
    return range.getBoundingClientRect().left - word.right;
  });
  expect(gap).toBeLessThan(1);
  await app.screenshot('26-intro-line');
});

test('in the dark theme the chunk charts draw their grid in the dark palette', async ({
  app,
  connect,
  diagnostics,
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.show('diagnostics');
  await expect(diagnostics.charts).toBeVisible();
  const gridStrokes = () =>
    page
      .locator('.recharts-cartesian-grid line')
      .evaluateAll((lines) => [...new Set(lines.map((line) => line.getAttribute('stroke')))]);
  const themeGrid = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--chart-grid').trim());
  expect(await gridStrokes()).toEqual([await themeGrid()]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator(':root')).toHaveAttribute('data-theme', 'dark');
  const dark = await themeGrid();
  await expect.poll(gridStrokes).toEqual([dark]);
  await app.screenshot('26-charts-dark');
});

test('a browser host refuses an upload over its limit, saying so in the page', async ({ page }) => {
  test.skip(host === 'electron', 'The desktop app opens files where they are: nothing is uploaded');
  const dir = await mkdtemp(join(tmpdir(), 'inspector-e2e-limit-'));
  // A host of its own with a 1 MiB limit, serving the renderer the suite built.
  const limited = await startWebApp({
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    demoAgent: false,
    maxUploadBytes: 1024 * 1024,
  });
  try {
    const file = join(dir, 'too-big.sse');
    await writeFile(file, 'data: {}\n\n'.repeat(210_000));
    await page.goto(limited.url);
    const app = new AppPage(page);
    await app.openFiles(file);
    await expect(app.errorBanner).toContainText(
      "413 Payload Too Large: too-big.sse is 2 MiB, over this browser host's upload limit of 1 MiB.",
    );
    await expect(app.sessionItems).toHaveCount(0);
    await app.screenshot('26-upload-limit');
  } finally {
    await limited.close();
    await rm(dir, { recursive: true, force: true });
  }
});
