import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ConnectPage, DemoFormat } from './pages/connect-page';

/** Runs one demo scenario to its end; the session title names scenario and format. */
async function run(app: AppPage, connect: ConnectPage, scenario: string, format: DemoFormat): Promise<void> {
  await app.show('connect');
  await connect.chooseDemo({ scenario, format, pace: 'fast' });
  await connect.run('done');
}

test('the XML and JSON runs of one scenario have no block differences', async ({ app, connect, diff }) => {
  await run(app, connect, 'tour', 'xml');
  await run(app, connect, 'tour', 'json');
  await app.show('diff');
  await diff.compare(/Tour · xml · \d+ env/, /Tour · json · \d+ env/);
  expect(await diff.differences()).toBe(0);
  await expect(diff.headline).toContainText(/No (block|real) differences/);
  await expect(diff.rowsWithStatus('changed')).toHaveCount(0);
  await expect(diff.rowsWithStatus('only-left')).toHaveCount(0);
  await expect(diff.rowsWithStatus('only-right')).toHaveCount(0);
  expect(await diff.rowsWithStatus('equal').count()).toBeGreaterThan(3);
  // What differs on the wire only (chunking, escaping) is listed apart from the blocks.
  await diff.tabEnvelopes.click();
  await expect(diff.envelopeRows.first()).toBeVisible();
  await app.expectNoErrors();
  await app.screenshot('05-diff-same-scenario');
});

test('two runs of one title are told apart in the pickers, and keep their title everywhere else', async ({
  app,
  connect,
  diff,
}) => {
  await run(app, connect, 'tour', 'json');
  await run(app, connect, 'tour', 'json');
  await app.show('diff');
  const tours = async (picker: typeof diff.left): Promise<string[]> =>
    (await picker.locator('option').allTextContents()).filter((o) => o.startsWith('Demo agent: Tour · json'));
  for (const picker of [diff.left, diff.right]) {
    await expect.poll(() => tours(picker)).toHaveLength(2);
    expect(new Set(await tours(picker)).size).toBe(2);
  }
  const [first, second] = await tours(diff.left);
  await diff.compare(first!, second!);
  expect(await diff.differences()).toBe(0);
  // Only the pickers say more: the sidebar keeps the title as it is.
  await expect(app.sessionItem(/Tour/)).toHaveCount(2);
  for (const item of await app.sessionItem(/Tour/).all()) {
    await expect(item).toContainText('Demo agent: Tour · json');
    await expect(item).not.toContainText(/opened|#\d/);
  }
  await app.screenshot('05-diff-same-title');
});

test('two different scenarios show their block differences', async ({ app, connect, diff }) => {
  await run(app, connect, 'tour', 'json');
  await run(app, connect, 'citations', 'json');
  await app.show('diff');
  await diff.compare(/Tour/i, /Citations/i);
  expect(await diff.differences()).toBeGreaterThan(0);
  await expect(diff.headline).toContainText(/\d+ differences?/);
  const different =
    (await diff.rowsWithStatus('changed').count()) +
    (await diff.rowsWithStatus('only-left').count()) +
    (await diff.rowsWithStatus('only-right').count());
  expect(different).toBeGreaterThan(0);
  await diff.rows.and(app.page.locator(':not([data-status="equal"])')).first().click();
  await expect(diff.blockEditor).toBeVisible();
  await app.expectNoErrors();
  await app.screenshot('05-diff-two-scenarios');
});

test('a diff saved with Export JSON opens again: the same counts and rows, read-only; a damaged one is refused', async ({
  app,
  diff,
}, testInfo) => {
  await app.openFiles(fixturePath('example_1.xml.sse'));
  await app.expectState('done');
  await app.openFiles(fixturePath('example_1.agent_base.json.sse'));
  await app.expectState('done');
  await app.show('diff');
  await diff.compare(/example_1\.xml/, /example_1\.agent_base/);
  const headline = await diff.headline.textContent();
  const rows = await diff.rows.count();
  const download = app.page.waitForEvent('download');
  await diff.exportButton.click();
  const saved = testInfo.outputPath((await download).suggestedFilename());
  await (await download).saveAs(saved);

  await diff.openExportInput.setInputFiles(saved);
  await expect(diff.exported).toContainText(
    /Exported diff example_1\.xml\.sse against example_1\.agent_base\.json\.sse · /,
  );
  await expect(diff.headline).toHaveText(headline ?? '');
  await expect(diff.rows).toHaveCount(rows);
  // Its sessions need not be open: a block is named, not a link into a session.
  await diff.rows.first().click();
  await expect(diff.blockEditor).toBeVisible();
  await expect(diff.result.getByRole('button', { name: /^left #/ })).toHaveCount(0);
  await app.screenshot('05-diff-exported');

  await diff.closeExport.click();
  await expect(diff.exported).toHaveCount(0);
  const damaged = join(testInfo.outputPath(), 'damaged.json');
  writeFileSync(damaged, '{"format": "agent-stream-inspector/diff", "version": 1, "rows": 7}');
  await diff.openExportInput.setInputFiles(damaged);
  await expect(diff.exportError).toContainText('damaged.json: damaged diff export: file.');
  await expect(diff.headline).toHaveText(headline ?? '');
});
