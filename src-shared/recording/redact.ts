import type { HeaderList, RecordedRequest } from './types';

/**
 * Secret redaction for recordings and logs (docs/security.md, "Secrets"). Recordings get
 * shared in bug reports, so anything that may carry a credential is replaced by REDACTED
 * before it is written. One policy decides by name, wherever the name appears: an HTTP
 * header, a JSON key at any depth, a form field, or a query or fragment parameter of a URL
 * (the request URL and URL-valued response headers such as `Location`). The policy errs on
 * the side of hiding: a redacted rate-limit header costs little, a leaked token a lot.
 */

export const REDACTED = '[redacted]';

/**
 * Words that make a name secret: `openai_api_key`, `X-Auth-Token`, `privateKey`,
 * `credentials`. Names are split into words (`_`, `-`, `.`, spaces and camelCase), so
 * `author` or `monkey` are not secret; plural counts (`max_tokens`, `input_tokens`) are not
 * either, because "tokens" is not in the list.
 */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'key',
  'keys',
  'apikey',
  'privatekey',
  'secret',
  'secrets',
  'token',
  'accesstoken',
  'authtoken',
  'jwt',
  'bearer',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'pwd',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'authentication',
  'cookie',
  'cookies',
  'session',
  'sessionid',
  'signature',
  'sig',
]);

/** Whole names that are secret although none of their words is (OAuth codes, short forms). */
const SECRET_NAMES: ReadonlySet<string> = new Set(['code', 'pass']);

const WORD_SPLIT = /[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/;

/** The one test of the policy: may a value under this name be a credential? */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  if (SECRET_NAMES.has(lower)) return true;
  for (const word of name.split(WORD_SPLIT)) if (word !== '' && SECRET_WORDS.has(word.toLowerCase())) return true;
  return false;
}

/** Response and request headers whose value is a URL: its query is redacted like the request URL's. */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location', 'referer']);

export function redactHeaders(headers: HeaderList): HeaderList {
  return headers.map(([name, value]) => {
    if (isSecretName(name)) return [name, REDACTED];
    return [name, URL_HEADERS.has(name.toLowerCase()) ? redactUrl(value) : value];
  });
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text; // a malformed escape: judge the name as written
  }
}

/** `a=1&token=x` → `a=1&token=[redacted]` (query strings and form bodies); order and separators kept. */
export function redactParams(params: string): string {
  return params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isSecretName(decodeComponent(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * Redacts the user-info part (`https://user:pass@host`) and secret query parameters (and
 * fragment parameters, where OAuth puts access tokens). Works on any string: a value that is
 * not an absolute URL only has its query part looked at.
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index just after the string literal that starts at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) return i + 1;
    else i++;
  }
  return text.length;
}

/** Index just after the value that starts at `start` (valid JSON): a string, a literal, or a whole container. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== '{' && first !== '[') {
    let i = start;
    while (i < text.length && !',]} \t\r\n'.includes(text[i] as string)) i++;
    return i;
  }
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}

/**
 * The [start, end) ranges of every value whose key is secret, in a valid JSON text. One pass
 * with an explicit stack of container kinds: nesting depth costs memory, never call stack.
 * A secret key's value is skipped whole, so nothing inside it is looked at again.
 */
function secretValueRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  let secretNext = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ':') {
      i++;
      continue;
    }
    if (c === ',') {
      expectKey = inObject[inObject.length - 1] === true;
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      inObject.pop();
      i++;
      continue;
    }
    if (expectKey && c === '"') {
      const end = stringEnd(text, i);
      secretNext = isSecretName(JSON.parse(text.slice(i, end)) as string);
      expectKey = false;
      i = end;
      continue;
    }
    if (secretNext) {
      const end = valueEnd(text, i);
      ranges.push([i, end]);
      secretNext = false;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      inObject.push(c === '{');
      expectKey = c === '{';
      i++;
      continue;
    }
    i = valueEnd(text, i);
  }
  return ranges;
}

function redactJson(text: string): string {
  const ranges = secretValueRanges(text);
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += `${text.slice(from, start)}"${REDACTED}"`;
    from = end;
  }
  return out + text.slice(from);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `a=1&b=2`: what a form-encoded body looks like (no spaces or line breaks, a name before each `=`). */
const FORM_BODY = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=?[^&\s]*)*$/;

/**
 * Redacts credential values in a request body: JSON values under a secret key at any depth
 * (formatting kept, only the values replaced), or secret fields of a form-encoded body
 * (`api_key=…&password=…`, by its Content-Type or its shape). Any other body, and a body
 * without secrets, is returned unchanged, byte for byte.
 */
export function redactBody(body: string | null, contentType = ''): string | null {
  if (body === null) return null;
  if (isJson(body)) return redactJson(body);
  if (/^\s*application\/x-www-form-urlencoded/i.test(contentType) || FORM_BODY.test(body.trim())) return redactParams(body);
  return body;
}

/** A request as it may be written to disk or a log: URL, headers and body redacted. */
export function redactRequest(request: RecordedRequest): RecordedRequest {
  const contentType = request.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return { method: request.method, url: redactUrl(request.url), headers: redactHeaders(request.headers), body: redactBody(request.body, contentType) };
}
