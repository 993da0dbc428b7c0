/**
 * URL conventions of the browser host: everything it serves lives under one secret path
 * segment, `/<token>/`, so the page, its assets (relative URLs) and the contract's WebSocket
 * all carry the per-run token and nothing without it is answered.
 */

export const SOCKET_PATH = 'ws';

const PAGE_URL = /^(https?):\/\/([^/?#]+)\/([^/?#]*)/;

/** The WebSocket URL for a page served by the browser host (`http://h:p/<token>/…` → `ws://h:p/<token>/ws`). */
export function socketUrlFor(pageUrl: string): string {
  const match = PAGE_URL.exec(pageUrl);
  if (!match) throw new Error(`Not a browser-host page URL: ${pageUrl}`);
  const [, scheme, authority, token] = match;
  return `${scheme === 'https' ? 'wss' : 'ws'}://${authority}/${token}/${SOCKET_PATH}`;
}
