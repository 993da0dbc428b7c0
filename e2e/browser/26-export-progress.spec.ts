import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBigRecording } from '../../src-main/services/recording/big-recording-testing';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, host, test } from './fixtures';

/**
 * A long export of a big session runs under the same progress bar as a long open: the bytes
 * written so far (of the envelopes the session has) and the rates, until the file is out.
 */

const MB = 1024 * 1024;
let dir: string;
let file: string;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-e2e-export-'));
  file = join(dir, 'big-export.recording');
  await writeBigRecording(file, 48 * MB);
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('exporting a big session shows a progress bar with the bytes written and the envelope rate', async ({
  app,
  page,
}) => {
  test.skip(host === 'electron', 'The desktop app exports through its own save dialog');
  test.setTimeout(180_000);
  await app.openFiles(file);
  await app.expectState('done', 120_000);
  const progress = page.getByTestId(TEST_IDS.taskProgress);
  await expect(progress).toHaveCount(0);

  const download = app.exportAsDownload('Envelopes (NDJSON)');
  await expect(progress).toBeVisible({ timeout: 30_000 });
  await expect(progress).toContainText('Exporting');
  await expect(page.getByTestId(TEST_IDS.taskProgressBytes)).toHaveText(
    /^[\d.]+ [kM]?B written · [\d,]+ of [\d,]+ envelopes$/,
  );
  await expect(page.getByTestId(TEST_IDS.taskProgressRate)).toHaveText(/^[\d,]+ envelopes\/s · [\d.]+ [kMG]?B\/s$/);
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /^\d+$/);
  await page.emulateMedia({ colorScheme: 'light' });
  await app.screenshot('26-export-progress-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('26-export-progress-dark');

  // The bar goes once the file is out, and the download is the whole export.
  const saved = join(dir, 'export.ndjson');
  await (await download).saveAs(saved);
  await expect(progress).toHaveCount(0);
  expect((await stat(saved)).size).toBeGreaterThan(30 * MB);
});
