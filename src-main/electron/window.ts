import { BrowserWindow, dialog, shell, type WebContents } from 'electron';
import { fileURLToPath } from 'node:url';
import { loadWindowState, trackWindowState } from './window-state';

/**
 * The main window, locked down: context isolation, sandbox, no Node in the renderer, no
 * navigation away from the app, no new windows, no webviews, no permissions. Links to the web
 * open in the system browser only after the user confirms; a file dropped on the window (which
 * Chromium would navigate to) is opened as a session instead.
 */

export interface WindowOptions {
  preload: string;
  /** The app page to load (app://inspector/index.html, or the dev server). */
  url: string;
  statePath: string;
  /** The window icon (a PNG). */
  icon: string;
  isAppUrl(url: string): boolean;
  /** A file was dropped onto the window. */
  onOpenPath(path: string): void;
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
    if (options.isAppUrl(target)) return;
    event.preventDefault();
    if (target.startsWith('file:')) {
      options.onOpenPath(fileURLToPath(target));
      return;
    }
    void confirmOpenExternal(BrowserWindow.fromWebContents(contents), target);
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
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
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
