import { memoryIo } from '../../src-main/cli/test-io';
import { decodeFile } from '../../src-main/cli/decode-file';
import { SAMPLES } from '../../src-main/services/samples/catalogue';
import { PROJECT_SAMPLES_DIR } from '../../src-main/services/samples/sample-commands';
import { TEST_IDS } from '../../src-renderer/testids';
import { join } from 'node:path';
import { expect, host, test } from './fixtures';

/**
 * The shipped sample recordings, opened the way a newcomer finds them: from the Connect view
 * (the view an empty app starts on). The host maps the sample's id to its files; the page
 * never names a path.
 */
async function envelopesIn(file: string): Promise<number> {
  return (await decodeFile(join(PROJECT_SAMPLES_DIR, file), 'auto', memoryIo())).envelopes.length;
}

test('the Connect view offers the samples and opens one, rows and all', async ({ app, timeline }) => {
  await app.expectView('connect');
  const samples = app.page.getByTestId(TEST_IDS.sampleOpen);
  await expect(samples).toHaveCount(SAMPLES.length);
  await expect(samples.first()).toContainText('Multi-agent run');
  await app.screenshot('09-samples-connect');
  await app.page.setViewportSize({ width: 1024, height: 700 });
  await app.page.getByTestId(TEST_IDS.samplesPanel).scrollIntoViewIfNeeded();
  await app.screenshot('09-samples-connect-1024');
  await app.page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('09-samples-connect-1024-dark');
  await app.page.emulateMedia({ colorScheme: 'light' });
  await app.page.setViewportSize({ width: 1440, height: 900 });

  await samples.and(app.page.locator('[data-sample="multi-agent"]')).click();
  await app.expectView('timeline');
  await expect(app.sessionTitle).toHaveText('Multi-agent run');
  await app.expectState('done');
  expect(await app.envelopeCount()).toBe(await envelopesIn('multi-agent.recording'));
  await expect(timeline.rows.first()).toBeVisible();
  expect(await timeline.rows.count()).toBeGreaterThan(10);
  await app.expectNoErrors();
  await app.screenshot('09-sample-multi-agent');
});

test('the XML and JSON pair opens as two sessions that diff without block differences', async ({ app, diff }) => {
  await app.page.locator(`[data-testid="${TEST_IDS.sampleOpen}"][data-sample="xml-vs-json"]`).click();
  await app.expectView('timeline');
  await expect(app.sessionItems).toHaveCount(2);
  await expect(app.sessionItem(/— XML/)).toBeVisible();
  await expect(app.sessionItem(/— JSON/)).toBeVisible();
  await app.show('diff');
  await diff.compare(/— XML/, /— JSON/);
  expect(await diff.differences()).toBe(0);
  await app.expectNoErrors();
});

test('the page icon is the app icon, served by the host under the CSP', async ({ app }) => {
  test.skip(host === 'electron', 'The desktop window takes its icon from the package, not from the page.');
  const href = await app.page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBe('./favicon.png');
  const response = await app.page.request.get(new URL(href!, app.page.url()).href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  expect(response.headers()['content-security-policy']).toContain("img-src 'self' data: blob:");
  const png = await response.body();
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 64]);
});
