import { redactTokenShapes } from './token-shapes';
import type { HeaderList, RecordedRequest, RecordedResponse } from './types';

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
  'authorisation',
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
    return [name, redactTokenShapes(URL_HEADERS.has(name.toLowerCase()) ? redactUrl(value) : value, REDACTED)];
  });
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text; // a malformed escape: judge the name as written
  }
}

/**
 * `a=1&token=x` → `a=1&token=[redacted]` (query strings and form bodies); order and separators
 * kept. `;` separates parameters as `&` does (`?a=1;token=x`, as older servers and matrix URLs write them).
 */
export function redactParams(params: string): string {
  return params
    .split(/([&;])/)
    .map((pair, i) => {
      const eq = pair.indexOf('=');
      if (i % 2 === 1 || eq < 0) return pair;
      return isSecretName(decodeComponent(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('');
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
  return redactTokenShapes(out, REDACTED);
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
  return replaceRanges(
    text,
    secretValueRanges(text).map(([start, end]) => [start, end, `"${REDACTED}"`] as const),
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A name, maybe quoted (`"token"`, `'token'`, or `\"token\"` inside a JSON string), then `:` or
 * `=`: where a value under that name starts, in any text (lenient JSON, JS objects, YAML,
 * header lines, `key=value` pairs, URLs inside values, XML attributes). The look-behind lets a
 * name start only where a word starts, which keeps the scan linear.
 */
const NAMED_VALUE = /(?<![\w$.-])(\\?["']?)([A-Za-z_$][\w$.-]*)(?:\\?["'])?[ \t]*([:=])[ \t]*/g;
/** An XML element: its text up to the next tag is its value. */
const XML_ELEMENT = /<([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>/g;
/** A multipart part's head: its body, up to the next boundary line, is the value of the field it names. */
const MULTIPART_PART = /content-disposition:[^\r\n]*?\bname="([^"\r\n]*)"[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n/gi;
/** An authorization scheme and its credential, wherever it is written (`"Bearer sk-…"` in a string value). */
const SCHEME_CREDENTIAL = /\b(?:[Bb]earer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})/g;
/** The user-info part of a URL written anywhere in a text. */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;

/** Where an unquoted value ends: after `=` at a parameter or word boundary, after `:` at the end of the line or item. */
const EQUALS_VALUE_END = /[\s&;,"'<>\\)}\]]/;
const COLON_VALUE_END = /[\r\n,;"'<>\\}\]]/;

function endOf(text: string, from: number, stop: RegExp): number {
  let i = from;
  while (i < text.length && !stop.test(text[i] as string)) i++;
  return i;
}

/** The [start, end) of a quoted value's content starting at `start` (on its quote; `\"` too); to the end of the text when it is cut. */
function quotedContent(text: string, start: number): [number, number] {
  if (text[start] === '\\') {
    const close = text.indexOf(`\\${text[start + 1] as string}`, start + 2);
    const stringEnd = text.indexOf('"', start + 2);
    const end = close < 0 ? (stringEnd < 0 ? text.length : stringEnd) : close;
    return [start + 2, end];
  }
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return [start + 1, Math.min(i, text.length)];
}

/** Replaces the given [start, end) ranges (in order, not overlapping) with `[redacted]`, or with what `replacement` gives. */
function replaceRanges(text: string, ranges: readonly (readonly [number, number, string?])[]): string {
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end, replacement] of ranges) {
    out += text.slice(from, start) + (replacement ?? REDACTED);
    from = end;
  }
  return out + text.slice(from);
}

function redactNamedValues(text: string): string {
  const ranges: [number, number, string?][] = [];
  NAMED_VALUE.lastIndex = 0;
  for (let match = NAMED_VALUE.exec(text); match; match = NAMED_VALUE.exec(text)) {
    const v = match.index + match[0].length;
    if (!isSecretName(match[2] as string)) continue;
    const c = text[v];
    let range: [number, number, string?] | null = null;
    if (c === '"' || c === "'" || (c === '\\' && (text[v + 1] === '"' || text[v + 1] === "'")))
      range = quotedContent(text, v);
    else if ((c === '{' || c === '[') && match[1] !== '\\"')
      range = [v, valueEnd(text, v), match[1] === '"' ? `"${REDACTED}"` : REDACTED];
    else range = [v, endOf(text, v, match[3] === '=' ? EQUALS_VALUE_END : COLON_VALUE_END)];
    if (range[1] > range[0]) {
      ranges.push(range);
      NAMED_VALUE.lastIndex = range[1];
    }
  }
  return replaceRanges(text, ranges);
}

/** Each match of `pattern` whose `name` is secret: its value, from the match's end to `end`, is redacted. */
function redactAfter(text: string, pattern: RegExp, end: (from: number) => number): string {
  const ranges: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (!isSecretName(match[1] as string)) continue;
    const from = match.index + match[0].length;
    const to = end(from);
    if (text.slice(from, to).trim() !== '') ranges.push([from, to]);
    pattern.lastIndex = Math.max(to, pattern.lastIndex);
  }
  return replaceRanges(text, ranges);
}

/**
 * Best-effort redaction of any text by key name: what {@link redactBody} does to a body that
 * is not strict JSON or a form (JSON with a trailing comma, `NaN` or a BOM, NDJSON, JS-object
 * style, YAML, XML, multipart, a body cut short), and to the string values of one that is
 * (a URL with `?token=…`, `"Authorization: Bearer …"`, JSON escaped inside a string). Only
 * values are replaced; a text without a secret is returned unchanged.
 */
export function redactText(text: string): string {
  let out = redactNamedValues(text);
  out = redactAfter(out, XML_ELEMENT, (from) => {
    const next = out.indexOf('<', from);
    return next < 0 ? out.length : next;
  });
  out = redactAfter(out, MULTIPART_PART, (from) => {
    const boundary = /\r?\n--/.exec(out.slice(from));
    return boundary ? from + boundary.index : out.length;
  });
  out = out.replace(
    SCHEME_CREDENTIAL,
    (whole, credential: string) => whole.slice(0, whole.length - credential.length) + REDACTED,
  );
  out = out.replace(URL_USER_INFO, (_whole, scheme: string) => `${scheme}${REDACTED}@`);
  return redactTokenShapes(out, REDACTED);
}

/** `a=1&b=2`: what a form-encoded body looks like (no spaces or line breaks, a field name before each `=`). */
const FORM_BODY = /^[\w.~%+[\]-]+=[^&\s]*(?:&[\w.~%+[\]-]+=?[^&\s]*)*$/;

/** What a recording or a log shows instead of a body it cannot keep: the reason, in brackets. */
export function withheldBody(reason: string): string {
  return `[body withheld: ${reason}]`;
}

/** NUL or U+FFFD (what decoding puts for bytes that are not UTF-8): binary data, which no text scan can redact. */
function isText(body: string): boolean {
  return !body.includes('\u0000') && !body.includes('\uFFFD');
}

/**
 * Redacts credential values in a request body: JSON values under a secret key at any depth
 * (formatting kept, only the values replaced), secret fields of a form-encoded body
 * (`api_key=…&password=…`, by its Content-Type or its shape), and in any other text, values
 * by key name as far as {@link redactText} finds them. A body that is not text is withheld
 * ({@link withheldBody}). A body without secrets is returned unchanged, byte for byte.
 */
export function redactBody(body: string | null, contentType = ''): string | null {
  if (body === null) return null;
  if (!isText(body))
    return withheldBody(`${body.length} characters that are not text (binary data cannot be checked for secrets)`);
  if (isJson(body)) return redactText(redactJson(body));
  if (/^\s*application\/x-www-form-urlencoded/i.test(contentType) || FORM_BODY.test(body.trim()))
    return redactText(redactParams(body));
  return redactText(body);
}

/** A request as it may be written to disk or a log: URL, headers and body redacted. */
export function redactRequest(request: RecordedRequest): RecordedRequest {
  const contentType = request.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return {
    method: request.method,
    url: redactUrl(request.url),
    headers: redactHeaders(request.headers),
    body: redactBody(request.body, contentType),
  };
}

/** A response head as it may be written or shown: its status and its headers redacted (nothing else of the record). */
export function redactResponse(response: RecordedResponse | null): RecordedResponse | null {
  return (
    response && { status: response.status, statusText: response.statusText, headers: redactHeaders(response.headers) }
  );
}
