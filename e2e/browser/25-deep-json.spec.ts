import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deeplyNestedCapture } from '../../src-shared/testing/deep-json';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * An envelope whose extra field nests 5,000 levels deep: the detail pane's JSON collapses the
 * part beyond ten levels into one line that counts what it holds, instead of a staircase
 * of thousands of `[` lines.
 */
test('JSON nested thousands of levels deep collapses beyond a depth with a count', async ({ app, timeline, page }) => {
  const folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-25-deep-'));
  try {
    const path = join(folder, 'deep.sse');
    await writeFile(path, deeplyNestedCapture(5000));
    await app.openFiles(path);
    await app.expectState('done');
    await timeline.select(0);
    await timeline.detailTab('envelope');
    const view = page.getByTestId(TEST_IDS.envelopeView);
    await expect(view).toContainText('"[… 1 item]"');
    await app.screenshotSizesAndThemes('25-deep-json');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
