import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The main window's security settings and navigation rule as plain data and a pure function,
 * so a test asserts them without the Electron binary (docs/security.md, "Electron"). The
 * renderer shows untrusted streams: it gets no Node, runs sandboxed in an isolated world, and
 * never leaves the app's own page.
 */
export const SECURE_WEB_PREFERENCES = {
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
  spellcheck: false,
} as const satisfies WebPreferences;

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export function mainWindowOptions(preload: string, bounds: WindowBounds): BrowserWindowConstructorOptions {
  return {
    ...bounds,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Agent Stream Inspector',
    backgroundColor: '#1e1e1e',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload },
  };
}

/**
 * What happens when the page tries to go to `url`: the app's own pages load; an http(s) link
 * is blocked and offered to the system browser (after the user confirms); anything else —
 * `file:` (which would show any file on disk), `data:`, `javascript:`, other schemes — is
 * blocked outright.
 */
export function judgeNavigation(url: string, isAppUrl: (url: string) => boolean): 'allow' | 'ask-external' | 'block' {
  if (isAppUrl(url)) return 'allow';
  return /^https?:\/\//i.test(url) ? 'ask-external' : 'block';
}
