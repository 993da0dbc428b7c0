import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBigRecording } from '../../src-main/services/recording/big-recording-testing';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, host, test } from './fixtures';

/**
 * A large recording opened through the file input: the browser host streams it to main while
 * main decodes it, so rows show while it is still uploading; a progress bar in the session
 * header says how much has arrived and is decoded, and how fast, until the file is in.
 */

const MB = 1024 * 1024;
let dir: string;
let file: string;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-e2e-upload-'));
  file = join(dir, 'big-upload.jsonl');
  await writeBigRecording(file, 40 * MB);
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a big file shows its first rows while it uploads, under a progress bar with bytes and rate', async ({
  app,
  timeline,
  page,
}) => {
  test.setTimeout(180_000);
  await app.openFiles(file);
  const progress = page.getByTestId(TEST_IDS.taskProgress);
  await expect(progress).toBeVisible({ timeout: 30_000 });
  const uploading = host === 'browser';
  await expect(page.getByTestId(TEST_IDS.taskProgressBytes)).toHaveText(
    uploading ? /^[\d.]+ [kM]B of 4\d MB uploaded · [\d.]+ [kM]?B decoded$/ : /^[\d.]+ [kM]?B of 4\d MB decoded$/,
  );
  await expect(page.getByTestId(TEST_IDS.taskProgressRate)).toHaveText(/^[\d,]+ envelopes\/s · [\d.]+ [kMG]?B\/s$/);
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /^\d+$/);
  // Rows are in the table while the bar still runs: decoding did not wait for the whole file.
  await expect(timeline.rows.first()).toBeVisible();
  await expect(progress).toBeVisible();
  await page.emulateMedia({ colorScheme: 'light' });
  await app.screenshot('26-upload-progress-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('26-upload-progress-dark');
  // The bar goes once the whole file is in and decoded.
  await app.expectState('done', 150_000);
  await expect(progress).toHaveCount(0);
});

test('the moving progress bar does not lay the page out at every frame', async ({ app, page }) => {
  test.setTimeout(180_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const layouts = async (): Promise<number> =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'LayoutCount')?.value ?? 0;
  await app.openFiles(file);
  await expect(page.getByTestId(TEST_IDS.taskProgress)).toBeVisible({ timeout: 30_000 });
  const before = await layouts();
  await page.waitForTimeout(1000);
  const perSecond = (await layouts()) - before;
  // The fills' width used to be a CSS transition: about 70 layouts a second for as long as
  // the bar moved. Scaled instead, the page lays out when a batch or the figures change.
  expect(perSecond).toBeLessThan(30);
  await app.expectState('done', 150_000);
});

test('nothing animates while a file loads: Chromium draws a frame only when something changed', async ({
  app,
  page,
}) => {
  test.setTimeout(180_000);
  await app.openFiles(file);
  await expect(page.getByTestId(TEST_IDS.taskProgress)).toBeVisible({ timeout: 30_000 });
  // A live dot that pulsed and fills that glided between updates kept Chromium drawing at
  // every frame for the whole load (docs/performance.md, "Stop 39"). Sampled over a second
  // of updates: a transition on the bar would be running in some of them.
  const running = await page.evaluate(async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      for (const animation of document.getAnimations())
        seen.add(animation instanceof CSSAnimation ? animation.animationName : String(animation.constructor.name));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return [...seen];
  });
  expect(running).toEqual([]);
  await app.expectState('done', 150_000);
});
