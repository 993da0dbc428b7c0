import { detachString } from '../text/detach';

/**
 * Pieces for reading the provider APIs' most frequent events from their compact JSON text
 * without JSON.parse (the Anthropic and OpenAI delta readers). Each one accepts only what
 * JSON.parse reads the same way; anything else is declined, and the event is parsed.
 */

/** What a JSON string holds only escaped (quote, backslash, control characters): text without them is its own value. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
export const ESCAPED_IN_JSON = /["\\\u0000-\u001f]/;

const QUOTE = '"';
const BACKSLASH = 0x5c;

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Whether `search` occurs in `text` at `at`. In Node 20, `startsWith` with a literal search
 * string measured about four times slower (a 38-character literal: a quarter of a JSON.parse
 * of the whole event); `lastIndexOf` from `at` tries `at` first, then only the positions
 * before it.
 */
export function startsAt(text: string, search: string, at: number): boolean {
  return text.lastIndexOf(search, at) === at;
}

/**
 * Whether `search` occurs in `text` at `at`, compared character by character: for the short
 * literals of a shape (src-shared/json/shapes.ts) this is two to four times faster than
 * `startsAt` in Node 20, whose `lastIndexOf` is a call into the runtime that, on a mismatch,
 * searches every position before `at` too.
 */
export function literalAt(text: string, search: string, at: number): boolean {
  const length = search.length;
  if (at + length > text.length) return false;
  for (let i = 0; i < length; i++) if (text.charCodeAt(at + i) !== search.charCodeAt(i)) return false;
  return true;
}

/**
 * The end of the JSON integer (digits only: no sign, fraction or exponent) at `at`, or -1
 * when there is none, it has a leading zero (not JSON), or more than `maxDigits` digits (so
 * that the value read stays exact).
 */
export function integerEnd(text: string, at: number, maxDigits: number): number {
  let end = at;
  for (let c = text.charCodeAt(end); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++end));
  const digits = end - at;
  return digits === 0 || digits > maxDigits || (digits > 1 && text.charCodeAt(at) === DIGIT_0) ? -1 : end;
}

/** The value of the digits `text[start, end)`. */
export function integerValue(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + (text.charCodeAt(i) - DIGIT_0);
  return value;
}

/** Where the JSON string whose text starts at `start` ends: its first quote that no backslash escapes, or -1. */
export function stringEnd(text: string, start: number): number {
  let end = text.indexOf(QUOTE, start);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf(QUOTE, end + 1);
  return end;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The value of the JSON string whose text is `text[start, end)` (between its quotes), or
 * undefined when that is no JSON string.
 */
export function stringValue(text: string, start: number, end: number): string | undefined {
  const raw = text.slice(start, end);
  // No escape: the text is its own value. A slice keeps the whole chunk's text alive, where
  // JSON.parse would make a string of its own.
  if (!ESCAPED_IN_JSON.test(raw)) return detachString(raw);
  // A quote no backslash escapes ends the string before `end`: a shape read an event that has
  // more fields after this one (a tool call's delta with its id and name). Told without the
  // SyntaxError JSON.parse would throw: an exception costs 4–14 µs, more than decoding the
  // event, and such events can be a tenth of a stream.
  if (stringEnd(text, start) !== end) return undefined;
  // Escapes (a newline, a quote…): the literal alone through JSON.parse, which fails when it
  // holds a raw control character or a bad escape.
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}
