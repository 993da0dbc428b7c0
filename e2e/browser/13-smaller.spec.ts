import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/** The smaller defects a new user met in the first hour, one test each. */

test('a paused replay says "paused" and offers no Stop', async ({ app, connect, replay }) => {
  // The demo's realistic pace: the replay at ×1 takes seconds.
  await connect.chooseDemo({ scenario: 'tour', format: 'json' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  await expect(app.sessionState).toHaveText('replaying');
  await replay.pause();
  await expect(app.sessionState).toHaveText('paused');
  await expect(app.page.getByTestId('stop-button')).toHaveCount(0);
});

test('finding badges stay inside the sidebar; the overhead chart says it shows totals; file sessions have no chunks-vs-frames chart', async ({
  app,
  diagnostics,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState(ENDED);
  const item = app.sessionItems.first();
  const itemBox = (await item.boundingBox())!;
  for (const badge of await item.locator('.badge').all()) {
    const box = (await badge.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(itemBox.x + itemBox.width);
    expect(box.y + box.height).toBeLessThanOrEqual(itemBox.y + itemBox.height);
  }
  await app.show('diagnostics');
  await expect(diagnostics.charts).toBeVisible();
  await expect(page.getByTestId('chart-overhead')).toContainText('total bytes');
  await expect(page.getByTestId('chart-chunks-frames')).toHaveCount(0);
  await expect(page.getByTestId('chart-first-envelope')).toContainText('request time is not known');
});

test('a live session counts the time to its first envelope from the request', async ({
  app,
  connect,
  diagnostics,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.show('diagnostics');
  await expect(diagnostics.charts).toBeVisible();
  await expect(page.getByTestId('chart-first-envelope')).toContainText("from the leg's request");
  await expect(page.getByTestId('chart-chunks-frames')).toBeVisible();
});

test('errors stack instead of piling up, dismiss all at once, and never show the upload’s internal path', async ({
  app,
  page,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-bad-'));
  try {
    const files = [1, 2, 3, 4].map((i) => join(folder, `not-a-stream-${i}.bin`));
    for (const [i, file] of files.entries()) await writeFile(file, Buffer.from([0, 1, 2, 0xff, 0xfe, i, 0, 0, 7]));
    // One at a time, as a user would: each open's error is shown before the next file is chosen
    // (opens run concurrently in main, so four at once may fail in any order).
    for (const [i, file] of files.entries()) {
      await app.openFiles(file);
      await expect(app.errorBanner).toContainText(`not-a-stream-${i + 1}.bin`);
    }
    await expect(page.getByTestId('error-more')).toContainText('2 more');
    await expect(app.errorItems.filter({ hasNotText: 'more' })).toHaveCount(2);
    await expect(app.errorBanner).toContainText('not-a-stream-4.bin');
    await expect(app.errorBanner).not.toContainText('stream-inspector-uploads');
    await page.getByTestId('error-dismiss-all').click();
    await expect(app.errorBanner).toHaveCount(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('the first row of a continuation leg is marked in the table', async ({ app, connect, timeline, tools }) => {
  await connect.chooseDemo({ scenario: 'frontend-tools', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('awaiting tools');
  const paused = await timeline.total();
  await tools.quickAnswer('toolu_demo_confirm', 'yes');
  await app.expectState(ENDED);
  await expect(timeline.row(paused)).toHaveAttribute('data-leg-start', 'true');
  await expect(timeline.row(paused - 1)).not.toHaveAttribute('data-leg-start', 'true');
  await app.screenshot('13-leg-divider');
});
