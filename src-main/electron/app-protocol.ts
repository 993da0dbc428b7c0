import { net, protocol, session } from 'electron';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../web/csp';

/**
 * The renderer is served from `app://inspector/…` rather than file://: one stable origin the
 * IPC wrapper can check, and a place to attach the CSP header to every response (file://
 * responses carry no headers). Only files inside the built renderer folder are served.
 */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://inspector`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveRenderer(rendererDir: string): void {
  const root = normalize(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'inspector') return new Response('Not found', { status: 404 });
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const path = normalize(join(root, relative));
    if (!path.startsWith(root + sep)) return new Response('Not found', { status: 404 });
    const file = await net.fetch(pathToFileURL(path).href);
    const headers = new Headers(file.headers);
    headers.set('Content-Security-Policy', contentSecurityPolicy());
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(file.body, { status: file.status, headers });
  });
}

/** The dev server (electron-vite dev) sends no CSP: add it to its responses. */
export function enforceCspOn(originPrefix: string): void {
  session.defaultSession.webRequest.onHeadersReceived({ urls: [`${originPrefix}/*`] }, (details, callback) => {
    const headers = {
      ...details.responseHeaders,
      'Content-Security-Policy': [contentSecurityPolicy({ connect: [originPrefix.replace(/^http/, 'ws')] })],
    };
    callback({ responseHeaders: headers });
  });
}

export function isAppUrl(url: string, devServer: string | undefined): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`)) return true;
  return (
    devServer !== undefined &&
    (url === devServer || url.startsWith(devServer.endsWith('/') ? devServer : `${devServer}/`))
  );
}
