import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './src-main/testing/chromium';
import { RUN_OPTIONS } from './e2e/support/run-options';
import { E2E_USER_DATA_PREFIX } from './e2e/support/user-data';

/**
 * The user flows (e2e/browser) against the browser host, started the way the README says
 * (`npm start -- --browser`), driven in Debian's Chromium (CHROMIUM_PATH, else
 * /usr/bin/chromium) — never a browser downloaded by `npx playwright install`. The same flows
 * and the desktop-only checks run against the Electron build with
 * playwright.electron.config.ts (`npm run test:e2e` runs both).
 *
 * The access token is fixed for the run (set here once; the test workers inherit the
 * environment) so the tests know the page URL. The host keeps what it remembers (recent
 * files) in a temp folder of the run, its HOME too, never in the user's own; the global
 * teardown removes the folder.
 */
const port = Number(process.env['E2E_PORT'] ?? 47_831);
process.env['E2E_TOKEN'] ??= randomBytes(24).toString('hex');
const token = process.env['E2E_TOKEN'];
process.env['E2E_USER_DATA'] ??= mkdtempSync(join(tmpdir(), E2E_USER_DATA_PREFIX));
const userData = process.env['E2E_USER_DATA'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  ...RUN_OPTIONS,
  reporter: process.env['CI'] ? [['list'], ['html', { open: 'never' }]] : 'list',
  globalTeardown: './e2e/support/user-data-teardown.ts',
  projects: [
    {
      name: 'browser',
      testDir: 'e2e/browser',
      use: {
        browserName: 'chromium',
        baseURL: `http://127.0.0.1:${port}/${token}/`,
        headless: true,
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [...CHROMIUM_ARGS],
        },
      },
    },
  ],
  webServer: {
    command: `node scripts/start.mjs --browser --port ${port}`,
    url: `http://127.0.0.1:${port}/${token}/`,
    env: { STREAM_INSPECTOR_TOKEN: token, STREAM_INSPECTOR_USER_DATA: userData, HOME: userData },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
