import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from '../../src-main/web/electron-binary';

/**
 * The desktop app for the Electron suites: built (`npm run build`) and launched through
 * Playwright's Electron support, each launch with a fresh user-data folder and without the
 * first-start demo session. Where the binary is not installed (the project's build machines)
 * the tests skip with `ELECTRON_SKIP_REASON`.
 */

export const ROOT = resolve(import.meta.dirname, '../..');
export const electronBinary = findElectronBinary(ROOT);
export const ELECTRON_SKIP_REASON = `Electron e2e skipped: ${electronBinary.found ? '' : electronBinary.reason}. The browser project runs the same flows against the browser host.`;
/** Where the app's renderer lives (the origin it serves itself from). */
export const ELECTRON_HOME = 'app://inspector/index.html';

export interface LaunchedApp {
  readonly app: ElectronApplication;
  readonly page: Page;
  close(): Promise<void>;
}

/** `files`: paths named on the command line (opened at start; the page may reopen them). */
export async function launchElectronApp(files: readonly string[] = []): Promise<LaunchedApp> {
  if (!electronBinary.found) throw new Error(ELECTRON_SKIP_REASON);
  const userData = await mkdtemp(join(tmpdir(), 'inspector-electron-'));
  const app = await electron.launch({
    executablePath: electronBinary.path,
    args: [ROOT, ...files],
    cwd: ROOT,
    env: { ...process.env, STREAM_INSPECTOR_USER_DATA: userData, STREAM_INSPECTOR_AUTOCONNECT: '0' },
  });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return {
    app,
    page,
    async close() {
      await app.close();
      await rm(userData, { recursive: true, force: true });
    },
  };
}
