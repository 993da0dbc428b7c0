import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import type { ViewId } from '../../../src-renderer/model/types';
import { TEST_IDS } from '../../../src-renderer/testids';

/** Where every run leaves its screenshots of the main views (gitignored). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../screenshots');

/** How long one capture may take before it is tried again (a normal one takes under 1 s). */
const SCREENSHOT_TIMEOUT_MS = 15_000;

/** Which app the flows drive: where it loads from, and where its screenshots go. */
export interface AppHost {
  readonly name: 'browser' | 'electron';
  /** The entry page: relative to the project's baseURL for the browser host. */
  readonly home: string;
}

export const BROWSER_HOST: AppHost = { name: 'browser', home: './' };

/**
 * The frame of the app: navigation, the sessions sidebar, the active session's header and
 * status line, the error list and the hidden file input the browser host opens files through.
 */
export class AppPage {
  readonly root: Locator;
  readonly bridgeBanner: Locator;
  readonly errorBanner: Locator;
  readonly errorItems: Locator;
  readonly viewRoot: Locator;
  readonly sessionItems: Locator;
  readonly fileInput: Locator;
  readonly sessionHeader: Locator;
  readonly sessionTitle: Locator;
  readonly sessionState: Locator;
  readonly statusEnvelopes: Locator;
  readonly statusHttp: Locator;
  readonly replayButton: Locator;
  readonly saveButton: Locator;
  readonly exportMenu: Locator;
  readonly renameButton: Locator;
  readonly titleInput: Locator;

  constructor(
    readonly page: Page,
    readonly host: AppHost = BROWSER_HOST,
  ) {
    this.root = page.getByTestId(TEST_IDS.app);
    this.bridgeBanner = page.getByTestId(TEST_IDS.bridgeBanner);
    this.errorBanner = page.getByTestId(TEST_IDS.errorBanner);
    this.errorItems = page.getByTestId(TEST_IDS.errorItem);
    this.viewRoot = page.getByTestId(TEST_IDS.viewRoot);
    this.sessionItems = page.getByTestId(TEST_IDS.sessionItem);
    this.fileInput = page.getByTestId(TEST_IDS.fileInput);
    this.sessionHeader = page.getByTestId(TEST_IDS.sessionHeader);
    this.sessionTitle = page.getByTestId(TEST_IDS.sessionTitle);
    this.sessionState = page.getByTestId(TEST_IDS.sessionState);
    this.statusEnvelopes = page.getByTestId(TEST_IDS.statusEnvelopes);
    this.statusHttp = page.getByTestId(TEST_IDS.statusHttp);
    this.replayButton = page.getByTestId(TEST_IDS.replayButton);
    this.saveButton = page.getByTestId(TEST_IDS.saveButton);
    this.exportMenu = page.getByTestId(TEST_IDS.exportMenu);
    this.renameButton = page.getByTestId(TEST_IDS.sessionRename);
    this.titleInput = page.getByTestId(TEST_IDS.sessionTitleInput);
  }

  /**
   * Loads the app. `autoconnect: false` keeps the first start from connecting to the demo agent
   * on its own, so a test sees only the sessions it starts.
   */
  async open({ autoconnect = false }: { autoconnect?: boolean } = {}): Promise<void> {
    await this.page.goto(autoconnect ? this.host.home : `${this.host.home}?autoconnect=0`);
    await expect(this.root).toBeVisible();
  }

  tab(view: ViewId): Locator {
    return this.page.getByTestId(`${TEST_IDS.nav}-${view}`);
  }

  async show(view: ViewId): Promise<void> {
    await this.tab(view).click();
    await this.expectView(view);
  }

  async expectView(view: ViewId): Promise<void> {
    await expect(this.viewRoot).toHaveAttribute('data-view', view);
  }

  /** Opens files the way a user does: through the file input (the desktop app reads them by path, the browser host uploads them). */
  async openFiles(paths: string | readonly string[]): Promise<void> {
    await this.fileInput.setInputFiles(typeof paths === 'string' ? paths : [...paths]);
  }

  sessionItem(title: string | RegExp): Locator {
    return this.sessionItems.filter({ hasText: title });
  }

  sessionById(id: string): Locator {
    return this.page.locator(`[data-testid="${TEST_IDS.sessionItem}"][data-session-id="${id}"]`);
  }

  /** Makes a session the active one by clicking it in the sidebar. */
  async selectSession(title: string | RegExp): Promise<void> {
    await this.sessionItem(title).first().click();
    await expect(this.sessionTitle).toHaveText(title);
  }

  /** Waits for the active session's state badge (complete, awaiting tools, replaying, …). */
  async expectState(state: string | RegExp, timeout = 30_000): Promise<void> {
    await expect(this.sessionState).toHaveText(state, { timeout });
  }

  /** The envelope count of the status line ("1,234 envelopes" → 1234). */
  async envelopeCount(): Promise<number> {
    return numberIn(await this.statusEnvelopes.innerText());
  }

  /** Clicks Save and waits for the download it starts (the browser host has no save dialog). */
  async saveAsDownload(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.saveButton.click();
    return download;
  }

  /** Picks an export by its menu label and waits for the download. */
  async exportAsDownload(label: string): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.exportMenu.selectOption({ label });
    return download;
  }

  /** Renames the active session through the header. */
  async rename(title: string): Promise<void> {
    await this.renameButton.click();
    await this.titleInput.fill(title);
    await this.titleInput.press('Enter');
    await expect(this.sessionTitle).toHaveText(title);
  }

  async expectNoErrors(): Promise<void> {
    await expect(this.errorItems).toHaveCount(0);
  }

  /** Opens a capture that decodes cleanly: it shows in the timeline, done, with no error finding. */
  async openCleanCapture(path: string): Promise<void> {
    await this.openFiles(path);
    await this.expectView('timeline');
    await this.expectState('done');
    await this.expectNoErrors();
  }

  /** Screenshots at 1440×900 and 1024×700, light and dark (`NAME-WIDTH-SCHEME.png`); leaves the page light at 1440×900. */
  async screenshotSizesAndThemes(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of [
        [1440, 900],
        [1024, 700],
      ] as const) {
        await this.page.setViewportSize({ width, height });
        await this.screenshot(`${name}-${width}-${scheme}`);
      }
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    await this.page.setViewportSize({ width: 1440, height: 900 });
  }

  /**
   * Starts counting the attributes written to the page's checkboxes. While a view follows a
   * stream none should be: the pickers' checkboxes are unchanged by a batch (see Checkbox).
   */
  async watchCheckboxWrites(): Promise<void> {
    await this.page.evaluate(() => {
      const counter = window as unknown as { checkboxWrites: number };
      counter.checkboxWrites = 0;
      new MutationObserver((records) => {
        counter.checkboxWrites += records.filter(
          (r) => r.target instanceof HTMLInputElement && r.target.type === 'checkbox',
        ).length;
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['type', 'name'] });
    });
  }

  async checkboxWrites(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { checkboxWrites: number }).checkboxWrites);
  }

  /**
   * A screenshot is for a person to look at, not an assertion, so it must not hang a flow:
   * headless Chromium now and then never delivers the frame a capture waits for (CI lost a
   * whole flow to one capture in stop 31). A capture gets a short timeout and one more try
   * after a nudge of the viewport, which makes the compositor draw a new frame.
   */
  async screenshot(name: string): Promise<void> {
    const dir = this.host.name === 'browser' ? SCREENSHOT_DIR : resolve(SCREENSHOT_DIR, this.host.name);
    await mkdir(dir, { recursive: true });
    const path = resolve(dir, `${name}.png`);
    try {
      await this.page.screenshot({ path, timeout: SCREENSHOT_TIMEOUT_MS });
    } catch (error) {
      console.warn(`screenshot ${name}: ${String(error).split('\n')[0]}; trying once more`);
      const size = this.page.viewportSize();
      if (size) {
        await this.page.setViewportSize({ width: size.width, height: size.height - 1 });
        await this.page.setViewportSize(size);
      }
      await this.page.screenshot({ path, timeout: SCREENSHOT_TIMEOUT_MS });
    }
  }
}

/** The first integer in a text, thousands separators allowed ("1,234 of 2,000" → 1234). */
export function numberIn(text: string): number {
  const match = /\d[\d,]*/.exec(text);
  if (!match) throw new Error(`No number in “${text}”`);
  return Number(match[0].replaceAll(',', ''));
}
