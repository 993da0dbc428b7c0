/**
 * Where the main window may go, as a pure function so a test checks it without the Electron
 * binary (docs/security.md, "Electron"): the app's own pages load; an http(s) link is blocked
 * and offered to the system browser (after the user confirms); anything else — `file:`
 * (which would show any file on disk), `data:`, `javascript:`, other schemes — is blocked.
 */
export function judgeNavigation(url: string, isAppUrl: (url: string) => boolean): 'allow' | 'ask-external' | 'block' {
  if (isAppUrl(url)) return 'allow';
  return /^https?:\/\//i.test(url) ? 'ask-external' : 'block';
}
