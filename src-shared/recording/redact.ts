import type { HeaderList, RecordedRequest } from './types';

/**
 * Secret redaction for recordings and logs. Recordings get shared in bug reports, so a
 * header, URL part or body field that may carry a credential is replaced by REDACTED
 * before anything is written. The rules err on the side of hiding: a redacted rate-limit
 * header costs little, a leaked token costs a lot.
 */

export const REDACTED = '[redacted]';

/** Header names that always carry credentials. */
const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);

/** Any header or query parameter whose name mentions one of these may carry a credential. */
const SECRET_NAME = /token|secret|key|auth|password|passwd|credential|session|signature/i;

export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name);
}

export function redactHeaders(headers: HeaderList): HeaderList {
  return headers.map(([name, value]) => [name, isSecretHeaderName(name) ? REDACTED : value]);
}

/** Query parameters named like these are redacted besides SECRET_NAME (signed URLs, OAuth). */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['code', 'sig', 'pwd', 'pass', 'jwt', 'x-amz-credential', 'x-amz-signature']);

function isSecretParam(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as written.
  }
  return SECRET_NAME.test(decoded) || SECRET_PARAMS.has(decoded.toLowerCase());
}

/** `a=1&token=x` → `a=1&token=[redacted]`; order and separators kept. */
function redactParams(params: string): string {
  return params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isSecretParam(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * Redacts the user-info part (`https://user:pass@host`) and sensitive query parameters
 * (and fragment parameters, where OAuth puts access tokens). Works on any string: a value
 * that is not an absolute URL only has its query part looked at.
 */
export function redactUrl(url: string): string {
  let rest = url;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | null = null;
  const question = rest.indexOf('?');
  if (question >= 0) {
    query = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  const scheme = rest.indexOf('://');
  if (scheme >= 0) {
    const authorityStart = scheme + 3;
    const slash = rest.indexOf('/', authorityStart);
    const authorityEnd = slash < 0 ? rest.length : slash;
    const at = rest.lastIndexOf('@', authorityEnd - 1);
    if (at >= authorityStart) rest = `${rest.slice(0, authorityStart)}${REDACTED}${rest.slice(at)}`;
  }
  let out = rest;
  if (query !== null) out += `?${redactParams(query)}`;
  if (hash >= 0) out += `#${fragment.includes('=') ? redactParams(fragment) : fragment}`;
  return out;
}

/** JSON body fields that are credentials by name (kept narrow: `max_tokens` is not a secret). */
const SECRET_BODY_KEYS = 'api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|token|secret|client[-_]?secret|password|passwd|authorization|cookie';
const SECRET_BODY_KEY = new RegExp(`^(${SECRET_BODY_KEYS})$`, 'i');
/** Cheap pre-check so that ordinary bodies are never re-serialised. */
const SECRET_BODY_KEY_ANYWHERE = new RegExp(`"(${SECRET_BODY_KEYS})"\\s*:`, 'i');

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = SECRET_BODY_KEY.test(key) ? REDACTED : redactValue(inner);
    return out;
  }
  return value;
}

/**
 * Redacts credential fields (`api_key`, `password`, `access_token`, …) anywhere in a JSON
 * request body. A body that is not JSON, or has no such field, is returned unchanged (same
 * string, same formatting).
 */
export function redactBody(body: string | null): string | null {
  if (body === null || !SECRET_BODY_KEY_ANYWHERE.test(body)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(redactValue(parsed));
}


/** A request as it may be written to disk or a log: URL, headers and body redacted. */
export function redactRequest(request: RecordedRequest): RecordedRequest {
  return { method: request.method, url: redactUrl(request.url), headers: redactHeaders(request.headers), body: redactBody(request.body) };
}
