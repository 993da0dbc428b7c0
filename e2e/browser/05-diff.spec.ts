import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ConnectPage, DemoFormat } from './pages/connect-page';

/** Runs one demo scenario to its end; the session title names scenario and format. */
async function run(app: AppPage, connect: ConnectPage, scenario: string, format: DemoFormat): Promise<void> {
  await app.show('connect');
  await connect.chooseDemo({ scenario, format, pace: 'fast' });
  await connect.connect();
  await app.expectView('timeline');
  await app.expectState('done');
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
