import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fixturePath, readFixture } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';

/**
 * A session's end status, in the header and in the sidebar: never a green "done" for a
 * stream that was cut, ended in an error or left a block open.
 */
const STREAM = readFixture('json_stream.json.sse');
/**
 * A cut inside a data line of the 23rd event of json_stream (22 complete events before it). At
 * 3,000 bytes the cut fell just after a whole line, an event whose data is complete: that one is
 * decoded now (sse.unterminated-last-event), so the cut must fall inside the line.
 */
const CUT_AT = 2990;

let server: Server | undefined;
let cutUrl = '';

test.beforeAll(async () => {
  // Sends the start of a real stream, then destroys the socket in the middle of an event.
  server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.write(STREAM.subarray(0, CUT_AT), () => setTimeout(() => req.socket.destroy(), 50));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  cutUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent/run`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** The status badge of the header and of the session's sidebar item: text, tone and why. */
async function expectStatus(app: AppPage, label: string, tone: string, reason: RegExp): Promise<void> {
  await app.expectState(label);
  await expect(app.sessionState).toHaveClass(new RegExp(`badge-${tone}\\b`));
  await expect(app.sessionState).toHaveAttribute('title', reason);
  const item = app.sessionItems.first().getByTestId(TEST_IDS.sessionItemState);
  await expect(item).toHaveText(label);
  await expect(item).toHaveClass(new RegExp(`badge-${tone}\\b`));
  await expect(app.sessionState).not.toHaveText(/complete|done/);
}

test('a stream cut in the middle of an event is truncated, not complete', async ({ app, connect }) => {
  await app.show('connect');
  await connect.url.fill(cutUrl);
  await connect.run();
  await expectStatus(app, 'truncated', 'warning', /^The stream was cut inside an event after 22 complete events/);
  await app.screenshot('09-end-status-cut');
});

test('a connection that is refused failed', async ({ app, connect }) => {
  // A port nothing listens on: a server started and closed again.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  await app.show('connect');
  await connect.url.fill(`http://127.0.0.1:${port}/agent/run`);
  await connect.connect();
  await expectStatus(app, 'failed', 'failed', /refused/i);
  await app.screenshot('09-end-status-failed');
});

test('a stream that ends in an error frame is "ended by error"', async ({ app, page }) => {
  await app.openFiles(fixturePath('error_midstream.json.sse'));
  await expectStatus(app, 'ended by error', 'error', /^The stream ended with an error in event 5: APIStatusError/);
  await app.screenshot('09-end-status-error');
  await page.setViewportSize({ width: 1024, height: 700 });
  await app.screenshot('09-end-status-error-1024');
});

test('a stream that leaves a block unclosed is truncated', async ({ app }) => {
  await app.openFiles(fixturePath('retry_midstream.json.sse'));
  await expectStatus(app, 'truncated', 'warning', /^Block #1 \(text\) never closed/);
  await app.screenshot('09-end-status-unclosed');
});

test('a clean stream is done, and each status has its own colour in the sidebar', async ({ app, page }) => {
  await app.openFiles([
    fixturePath('json_stream.json.sse'),
    fixturePath('error_midstream.json.sse'),
    fixturePath('retry_midstream.json.sse'),
  ]);
  await expect(app.sessionItems).toHaveCount(3);
  const badge = (name: string) => app.sessionItem(name).getByTestId(TEST_IDS.sessionItemState);
  await expect(badge('json_stream')).toHaveText('done');
  await expect(badge('json_stream')).toHaveClass(/badge-ok\b/);
  await expect(badge('error_midstream')).toHaveClass(/badge-error\b/);
  await expect(badge('retry_midstream')).toHaveClass(/badge-warning\b/);
  await app.screenshot('09-end-status-sidebar');
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('09-end-status-sidebar-dark');
});

test('a long status, a three-digit count and findings of two severities share one sidebar line, the count whole', async ({
  app,
}, testInfo) => {
  // A finished stream, then one that fails: ended by error, 141 envelopes, 8 errors and 18 warnings.
  mkdirSync(testInfo.outputPath(), { recursive: true });
  const joined = join(testInfo.outputPath(), 'joined.sse');
  writeFileSync(joined, Buffer.concat([readFixture('example_1.json.sse'), readFixture('error_midstream.json.sse')]));
  await app.openFiles(joined);
  const item = app.sessionItem('joined.sse');
  await expect(item.getByTestId(TEST_IDS.sessionItemState)).toHaveText('ended by error');
  const count = item.locator('.session-count');
  await expect(count).toHaveText('141 env');
  // The findings as one badge, the total in the worst severity's colour, each count in its tooltip.
  const findings = item.locator('.severity-counts .badge');
  await expect(findings).toHaveText('26');
  await expect(findings).toHaveAttribute('title', '8 errors, 18 warnings');
  await expect(findings).toHaveClass(/badge-error\b/);
  // Nothing of the count is cut, and the line stays inside its row: the dialect id gave way.
  expect(await count.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  const row = (await item.boundingBox())!;
  const badge = (await findings.boundingBox())!;
  expect(badge.x + badge.width).toBeLessThanOrEqual(row.x + row.width);
  await app.screenshot('09-end-status-sidebar-long-line');
});
