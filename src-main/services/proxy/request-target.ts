import type { HeaderList } from '../../../src-shared/recording/types';

/**
 * What the reverse proxy does with the request target and headers a client sends
 * (docs/proxy.md, "What it refuses"). A client is anyone who can reach 127.0.0.1, a web page
 * included, so nothing it sends may choose where the request goes.
 */

/** A request target the proxy forwards: the URL it stands for, and the path sent upstream as the client wrote it. */
export interface ForwardTarget {
  url: URL;
  path: string;
}

/**
 * Resolves a request target against the proxy's target, or says why it is refused (a 400).
 *
 * The target's path and the client's are joined as strings and only then parsed, so a target
 * such as `//host/x`, `/\host` or `//user:pw@host` stays a path on the target's origin instead
 * of naming an authority (resolving it as a relative URL would). Anything that still resolves
 * to another origin, or out of the target's base path (`/api/../admin`), is refused.
 */
export function resolveRequestTarget(target: URL, requestTarget: string): ForwardTarget | { refused: string } {
  // Origin form only: the absolute form (`http://host/x`) and `*` are for forward proxies.
  if (!requestTarget.startsWith('/'))
    return { refused: `The proxy forwards paths such as /agent/run, not '${requestTarget}'.` };
  const basePath = target.pathname.replace(/\/$/, '');
  const path = `${basePath}${requestTarget}`;
  let url: URL;
  try {
    url = new URL(`${target.origin}${path}`);
  } catch {
    return { refused: `The request target '${requestTarget}' is not a valid path.` };
  }
  if (url.origin !== target.origin || url.username !== '' || url.password !== '')
    return { refused: `The request target '${requestTarget}' resolves to another origin than ${target.origin}.` };
  if (basePath !== '' && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
    return { refused: `The request target '${requestTarget}' resolves outside ${basePath}.` };
  return { url, path };
}

/** Hop-by-hop headers (RFC 9110 §7.6.1): they belong to one connection and are not forwarded. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Raw header pairs as received (names and order kept), less Host, the hop-by-hop headers and
 * those the message's `Connection` header names as hop-by-hop (RFC 9110 §7.6.1).
 */
export function forwardHeaders(raw: readonly string[]): HeaderList {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === 'host') continue;
    out.push([name, raw[i + 1]!]);
  }
  return out;
}
