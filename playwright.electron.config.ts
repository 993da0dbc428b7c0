import { defineConfig } from '@playwright/test';
import { RUN_OPTIONS } from './e2e/support/run-options';

/**
 * The desktop app through Playwright's Electron support: the desktop-only checks
 * (e2e/electron) and the same user flows the browser host runs (e2e/browser, whose fixtures
 * launch the Electron build when E2E_HOST is electron; the test workers inherit it). Where the
 * Electron binary is not installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1) every test
 * skips and the setup says why once.
 */
process.env['E2E_HOST'] = 'electron';

export default defineConfig({
  testDir: 'e2e',
  testMatch: ['electron/**/*.spec.ts', 'browser/**/*.spec.ts'],
  outputDir: 'test-results/electron',
  ...RUN_OPTIONS,
  reporter: 'list',
  globalSetup: './e2e/support/electron-setup.ts',
});
