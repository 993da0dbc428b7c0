import { join } from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract/inspector';
import {
  ELECTRON_SKIP_REASON,
  electronBinary,
  launchElectronApp,
  ROOT,
  type LaunchedApp,
} from '../support/electron-app';

/**
 * What only the desktop app has: the preload bridge and nothing else of Node, the app://
 * origin and its navigation lock, main's services reached over IPC, calls refused at the IPC
 * boundary. The user flows run here too (playwright.electron.config.ts runs e2e/browser
 * against this app). Where the Electron binary is not installed every test skips and says why.
 */

const fixtures = join(ROOT, 'resources/fixtures/upstream');

/** The page's global object as the tests see it (page.evaluate bodies run in the page). */
interface PageGlobal {
  inspector?: InspectorService;
  require?: unknown;
  process?: unknown;
  open(url: string): unknown;
}

test.skip(!electronBinary.found, ELECTRON_SKIP_REASON);

let launched: LaunchedApp;
let app: ElectronApplication;
let page: Page;

test.beforeEach(async () => {
  launched = await launchElectronApp();
  ({ app, page } = launched);
});

test.afterEach(async () => {
  await launched.close();
});

test('renders the app and exposes the contract bridge, and nothing else of Node', async () => {
  await expect(page).toHaveTitle(/Agent Stream Inspector/);
  const bridge = await page.evaluate(() => {
    const page = globalThis as unknown as PageGlobal;
    return {
      commands: typeof page.inspector?.connect,
      events: typeof page.inspector?.onSessionBatch,
      require: typeof page.require,
      process: typeof page.process,
    };
  });
  expect(bridge).toEqual({ commands: 'function', events: 'function', require: 'undefined', process: 'undefined' });
  const info = await page.evaluate(() => (globalThis as unknown as PageGlobal).inspector!.getAppInfo());
  expect(info).toMatchObject({ host: 'electron', capabilities: { fileDialogs: true } });
});

test('serves the renderer from the app origin and blocks new windows and navigation', async () => {
  const url = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL());
  expect(url.startsWith('app://inspector/')).toBe(true);
  // Non-http(s) targets are refused without asking (http(s) would open a confirmation dialog).
  expect(await page.evaluate(() => (globalThis as unknown as PageGlobal).open('about:blank'))).toBeNull();
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'app://elsewhere/index.html';
  });
  await page.waitForTimeout(500);
  expect(page.url().startsWith('app://inspector/')).toBe(true);
  expect(app.windows()).toHaveLength(1);
});

test('connects to the embedded demo agent through the contract and streams a session', async () => {
  const summary = await page.evaluate(async () => {
    const api = (globalThis as unknown as PageGlobal).inspector!;
    const demo = await api.getDemoAgent();
    if (!demo) throw new Error('no demo agent');
    const session = await api.connect(demo.defaultRequest);
    for (let i = 0; i < 200; i++) {
      const current = (await api.listSessions()).find((s) => s.id === session.id);
      if (current && current.state !== 'connecting' && current.state !== 'streaming') return current;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the session did not finish');
  });
  expect(summary.envelopes).toBeGreaterThan(0);
  expect(summary.diagnostics.error).toBe(0);
});

test('opens a file named on the command line and batches its rows to the window; any other path is refused', async () => {
  await launched.close();
  const path = join(fixtures, 'multi_agent.json.sse');
  launched = await launchElectronApp([path]);
  ({ app, page } = launched);
  const outcome = await page.evaluate(async (file) => {
    const api = (globalThis as unknown as PageGlobal).inspector!;
    const refused = await api.openFile({ path: '/etc/passwd' }).then(
      () => 'opened',
      (error: unknown) => (error as Error).message,
    );
    let seen = 0;
    const off = api.onSessionBatch((batch) => (seen += batch.columns.receivedAt.length));
    const session = await api.openFile({ path: file });
    for (let i = 0; i < 100; i++) {
      const current = (await api.listSessions()).find((s) => s.id === session.id);
      if (current?.state === 'complete' && seen === current.envelopes) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    off();
    return { seen, refused };
  }, path);
  expect(outcome.seen).toBeGreaterThan(0);
  expect(outcome.refused).toMatch(/^Refused to open "\/etc\/passwd": the inspector opens only files you chose/);
});

test('never navigates to a file: URL', async () => {
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'file:///etc/passwd';
  });
  await page.waitForTimeout(500);
  expect(page.url().startsWith('app://inspector/')).toBe(true);
  const sessions = await page.evaluate(() => (globalThis as unknown as PageGlobal).inspector!.listSessions());
  expect(sessions).toEqual([]);
});

test('refuses calls with malformed arguments at the boundary', async () => {
  const message = await page.evaluate(async () => {
    try {
      await (globalThis as unknown as PageGlobal).inspector!.getRows({ sessionId: '../../etc', start: -1, count: 5 });
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  });
  expect(message).toMatch(/Invalid argument for getRows/);
});
