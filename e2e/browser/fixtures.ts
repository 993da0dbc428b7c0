import { test as base, type Page } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract';
import { closeAllSessions, connectInspector } from '../support/inspector';
import { ELECTRON_HOME, ELECTRON_SKIP_REASON, electronBinary, launchElectronApp } from '../support/electron-app';
import { AppPage, BROWSER_HOST, type AppHost } from './pages/app-page';
import { BlocksPage } from './pages/blocks-page';
import { ConnectPage } from './pages/connect-page';
import { DiagnosticsPage } from './pages/diagnostics-page';
import { DiffPage } from './pages/diff-page';
import { ReplayPage } from './pages/replay-page';
import { TimelinePage } from './pages/timeline-page';
import { ToolsPage } from './pages/tools-page';

/**
 * The flows' fixtures, for either app: the browser host (the `browser` project of
 * playwright.config.ts, against the host it starts the way the README says) or the desktop
 * app (playwright.electron.config.ts sets E2E_HOST=electron: each test launches the Electron
 * build, and skips with the reason where its binary is not installed). Every test starts
 * without sessions: the browser host outlives the tests, so the sessions the previous test
 * left are closed; the renderer's stored state (form, preferences) starts empty too. `app` is
 * the loaded app; the other page objects wrap one view each.
 */
const HOST: AppHost = process.env['E2E_HOST'] === 'electron' ? { name: 'electron', home: ELECTRON_HOME } : BROWSER_HOST;
/** Which app this run drives, for the few flows that exist in one of them only. */
export const host = HOST.name;

interface Pages {
  app: AppPage;
  connect: ConnectPage;
  timeline: TimelinePage;
  blocks: BlocksPage;
  diagnostics: DiagnosticsPage;
  tools: ToolsPage;
  diff: DiffPage;
  replay: ReplayPage;
}

interface HostFixtures {
  /** The tests' own client of the app's main process, over the same contract as the page. */
  inspector: InspectorService;
}

/** The browser host: the project's page, and a WebSocket client of the host. */
const browserHost = base.extend<HostFixtures>({
  inspector: async ({ baseURL }, use) => {
    if (!baseURL) throw new Error('The browser project needs a baseURL (the browser host page URL, token included)');
    const handle = await connectInspector(baseURL);
    await use(handle.service);
    handle.close();
  },
});

/** The desktop app: its window is the page; the tests' client calls the contract through the window's bridge. */
const electronHost = base.extend<HostFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  page: async ({}, use, testInfo) => {
    testInfo.skip(!electronBinary.found, ELECTRON_SKIP_REASON);
    const launched = await launchElectronApp();
    await launched.page.setViewportSize({ width: 1440, height: 900 });
    await use(launched.page);
    await launched.close();
  },
  inspector: async ({ page }, use) => use(bridgeClient(page)),
});

/** The contract's commands, called through the page's `window.inspector` bridge (events are not needed here). */
function bridgeClient(page: Page): InspectorService {
  const call = (method: string, arg: unknown): Promise<unknown> =>
    page.evaluate(
      ([name, value]) =>
        (globalThis as unknown as { inspector: Record<string, (arg: unknown) => Promise<unknown>> }).inspector[name]!(
          value,
        ),
      [method, arg] as const,
    );
  return new Proxy({} as InspectorService, { get: (_target, method) => (arg: unknown) => call(String(method), arg) });
}

export const test = (HOST.name === 'electron' ? electronHost : browserHost).extend<Pages>({
  viewport: { width: 1440, height: 900 },
  app: async ({ page, inspector }, use) => {
    await closeAllSessions(inspector);
    const app = new AppPage(page, HOST);
    await app.open();
    await use(app);
  },
  connect: async ({ page }, use) => use(new ConnectPage(page)),
  timeline: async ({ page }, use) => use(new TimelinePage(page)),
  blocks: async ({ page }, use) => use(new BlocksPage(page)),
  diagnostics: async ({ page }, use) => use(new DiagnosticsPage(page)),
  tools: async ({ page }, use) => use(new ToolsPage(page)),
  diff: async ({ page }, use) => use(new DiffPage(page)),
  replay: async ({ page }, use) => use(new ReplayPage(page)),
});

export { expect } from '@playwright/test';
