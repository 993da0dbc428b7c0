import { test as base } from '@playwright/test';
import type { InspectorService } from '../../src-shared/contract';
import { closeAllSessions, connectInspector } from '../support/inspector';
import { AppPage } from './pages/app-page';
import { BlocksPage } from './pages/blocks-page';
import { ConnectPage } from './pages/connect-page';
import { DiagnosticsPage } from './pages/diagnostics-page';
import { DiffPage } from './pages/diff-page';
import { ReplayPage } from './pages/replay-page';
import { TimelinePage } from './pages/timeline-page';
import { ToolsPage } from './pages/tools-page';

/**
 * The browser-host suite's fixtures. The host (started by playwright.config.ts the way the
 * README says) lives for the whole run, so every test starts by closing the sessions the
 * previous one left; each test has its own browser context, so the renderer's stored state
 * (form, preferences) starts empty too. `app` is the loaded app; the other page objects wrap
 * one view each.
 */
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

interface Worker {
  /** The tests' own client of the host, over the same contract as the page. */
  inspector: InspectorService;
}

export const test = base.extend<Pages, Worker>({
  viewport: { width: 1440, height: 900 },
  inspector: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      if (!baseURL) throw new Error('The browser project needs a baseURL (the browser host page URL, token included)');
      const handle = await connectInspector(baseURL);
      await use(handle.service);
      handle.close();
    },
    { scope: 'worker' },
  ],
  app: async ({ page, inspector }, use) => {
    await closeAllSessions(inspector);
    const app = new AppPage(page);
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
