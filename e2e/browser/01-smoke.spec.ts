import { expect, host, test } from './fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { AppPage } from './pages/app-page';

test.describe('smoke', () => {
  test('the UI renders, the bridge to the host is up and the demo agent is the default preset', async ({
    page,
    app,
    connect,
  }) => {
    await expect(page).toHaveTitle(/Agent Stream Inspector/);
    await app.expectView('connect');
    // The preset is enabled and the form filled only once the host answered over the bridge.
    await expect(connect.presetDemo).toBeEnabled();
    await expect(connect.presetDemo).toHaveAttribute('aria-checked', 'true');
    await expect(connect.url).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/agent\/run$/);
    await expect(connect.method).toHaveValue('POST');
    await expect(connect.scenario).toBeVisible();
    await expect(app.bridgeBanner).toHaveCount(0);
    await app.expectNoErrors();
    // The renderer runs as a web page: nothing of Node leaks into it.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    await app.screenshot('01-connect');
  });

  test('says so, in a banner, when the bridge to the host is down', async ({ page }) => {
    test.skip(host === 'electron', 'The desktop app talks to main over IPC: there is no socket to lose.');
    await page.routeWebSocket(/\/ws$/, (socket) => socket.close({ code: 1011, reason: 'host gone' }));
    const app = new AppPage(page);
    await app.open();
    await expect(app.bridgeBanner).toBeVisible();
  });

  test('a view whose code fails to load says so in place, and the other views keep working', async ({
    page,
    app,
    connect,
  }) => {
    test.skip(host === 'electron', 'The desktop app loads its code from its own bundle: there is no request to fail.');
    // As after an update replaced the chunks under an open page.
    await page.route(/\/assets\/DiffView-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await app.tab('diff').click();
    const failure = page.getByTestId(TEST_IDS.viewError);
    await expect(failure).toContainText('This view failed');
    await expect(failure).toContainText(/DiffView-[^/]+\.js/);
    await expect(failure.getByRole('button', { name: 'Reload the window' })).toBeVisible();
    await app.screenshot('01-view-error');
    await app.show('connect');
    await expect(connect.presetDemo).toBeVisible();
  });

  test('a first start connects to the demo agent on its own', async ({ page, app, blocks }) => {
    await app.open({ autoconnect: true });
    // The conversation first (25-first-view): Blocks, not the timeline's delta fragments.
    await app.expectView('blocks');
    await expect(app.sessionItems).toHaveCount(1);
    await expect(app.sessionTitle).toHaveText(/^Demo agent/);
    await expect(blocks.blocks.first()).toBeVisible();
    // Half a stream cannot be replayed: the Replay button waits for the end. The state and the
    // button are read together at every frame until the end, since on a busy machine the tour
    // may already be done when the first block shows.
    const seen = await page.evaluate(
      ({ state, replay }) =>
        new Promise<string[]>((resolve) => {
          const samples: string[] = [];
          const sample = (): void => {
            const text = document.querySelector(`[data-testid="${state}"]`)?.textContent ?? '';
            const button = document.querySelector<HTMLButtonElement>(`[data-testid="${replay}"]`);
            samples.push(`${text}:${button?.disabled ? 'disabled' : 'enabled'}`);
            if (text.includes('done') || samples.length > 3600) resolve(samples);
            else requestAnimationFrame(sample);
          };
          sample();
        }),
      { state: TEST_IDS.sessionState, replay: TEST_IDS.replayButton },
    );
    expect(seen.filter((s) => !s.includes('done') && s.endsWith(':enabled'))).toEqual([]);
    await app.expectState('done');
    await expect(app.replayButton).toBeEnabled();
  });
});

test.describe('theme', () => {
  test("follows the system until the user picks one; the pick is kept over the system's changes and a reload", async ({
    page,
    app,
  }) => {
    const switcher = page.getByTestId(TEST_IDS.themeSwitch);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const dark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await background()).not.toBe(dark);
    await switcher.selectOption('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await background()).toBe(dark);
    await app.screenshot('01-theme-dark-chosen');
    await page.reload();
    await expect(page.getByTestId(TEST_IDS.themeSwitch)).toHaveValue('dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByTestId(TEST_IDS.themeSwitch).selectOption('system');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  });
});
