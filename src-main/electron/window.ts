import { BrowserWindow, dialog, shell, type WebContents } from 'electron';
import { judgeNavigation } from './window-policy';
import { loadWindowState, trackWindowState } from './window-state';

/**
 * The main window, locked down: context isolation, sandbox, no Node in the renderer, no
 * navigation away from the app (a `file:` URL included: the page could otherwise show any
 * file), no new windows, no webviews, no permissions. Links to the web open in the system
 * browser only after the user confirms. Files dropped on the window are handled by the page
 * (the preload grants their paths), so Chromium never navigates to them.
 */

export interface WindowOptions {
  preload: string;
  /** The app page to load (app://inspector/index.html, or the dev server). */
  url: string;
  statePath: string;
  /** The window icon (a PNG). */
  icon: string;
  isAppUrl(url: string): boolean;
  /** Where refused navigations are reported. */
  log(message: string): void;
}

/** Asks before handing an http(s) URL to the system browser; anything else is refused. */
export async function confirmOpenExternal(owner: BrowserWindow | null, url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const options = {
    type: 'question' as const,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: 'Open this link in your web browser?',
    detail: parsed.href,
  };
  const { response } = owner ? await dialog.showMessageBox(owner, options) : await dialog.showMessageBox(options);
  if (response !== 0) return false;
  await shell.openExternal(parsed.href);
  return true;
}

function lockDown(contents: WebContents, options: WindowOptions): void {
  contents.on('will-navigate', (event) => {
    const target = event.url;
    const verdict = judgeNavigation(target, (url) => options.isAppUrl(url));
    if (verdict === 'allow') return;
    event.preventDefault();
    if (verdict === 'ask-external') void confirmOpenExternal(BrowserWindow.fromWebContents(contents), target);
    else options.log(`Blocked navigation to ${target.slice(0, 200)}`);
  });
  contents.on('will-redirect', (event) => {
    if (!options.isAppUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    void confirmOpenExternal(BrowserWindow.fromWebContents(contents), url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const state = loadWindowState(options.statePath);
  // The renderer shows untrusted streams: no Node, sandboxed, in an isolated world. Written
  // out here, where Electronegativity and window-policy.test.ts both read it.
  const window = new BrowserWindow({
    ...(state.positioned ? { x: state.bounds.x, y: state.bounds.y } : {}),
    width: state.bounds.width,
    height: state.bounds.height,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Agent Stream Inspector',
    icon: options.icon,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  if (state.maximized) window.maximize();
  trackWindowState(window, options.statePath);
  lockDown(window.webContents, options);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}
