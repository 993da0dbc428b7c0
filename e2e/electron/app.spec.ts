import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract/inspector';
import { findElectronBinary } from '../../src-main/web/electron-binary';

/**
 * The desktop app, built (`npm run build`) and launched through Playwright's Electron support,
 * each test with its own user-data folder. Where the Electron binary is not installed (the
 * project's build machines) every test skips and says why; the same flows run against the
 * browser host in the `browser` project.
 */

const root = resolve(import.meta.dirname, '../..');
const binary = findElectronBinary(root);
const fixtures = resolve(root, '../shared/fixtures/upstream');

/** The page's global object as the tests see it (page.evaluate bodies run in the page). */
interface PageGlobal {
  inspector?: InspectorService;
  require?: unknown;
  process?: unknown;
  open(url: string): unknown;
}

const skipReason = `Electron e2e skipped: ${binary.found ? '' : binary.reason}. The browser project covers the same app.`;
// The list reporter shows skipped tests without their reason: say it once, plainly.
if (!binary.found) console.warn(skipReason);
test.skip(!binary.found, skipReason);

let app: ElectronApplication;
let page: Page;
let userData: string;

test.beforeEach(async () => {
  userData = await mkdtemp(join(tmpdir(), 'inspector-electron-'));
  app = await electron.launch({
    executablePath: binary.found ? binary.path : undefined,
    args: [root],
    cwd: root,
    env: { ...process.env, STREAM_INSPECTOR_USER_DATA: userData },
  });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
});

test.afterEach(async () => {
  await app.close();
  await rm(userData, { recursive: true, force: true });
});

test('renders the app and exposes the contract bridge, and nothing else of Node', async () => {
  await expect(page).toHaveTitle(/Agent Stream Inspector/);
  const bridge = await page.evaluate(() => {
    const page = globalThis as unknown as PageGlobal;
    return { commands: typeof page.inspector?.connect, events: typeof page.inspector?.onSessionBatch, require: typeof page.require, process: typeof page.process };
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

test('opens a fixture file and batches its rows to the window', async () => {
  const path = join(fixtures, 'multi_agent.json.sse');
  const rows = await page.evaluate(async (file) => {
    const api = (globalThis as unknown as PageGlobal).inspector!;
    let seen = 0;
    const off = api.onSessionBatch((batch) => (seen += batch.columns.receivedAt.length));
    const session = await api.openFile({ path: file });
    for (let i = 0; i < 100; i++) {
      const current = (await api.listSessions()).find((s) => s.id === session.id);
      if (current?.state === 'complete' && seen === current.envelopes) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    off();
    return seen;
  }, path);
  expect(rows).toBeGreaterThan(0);
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
