import { createUtf8Decoder } from '../text/utf8';
import type { ChunkRecord } from './types';

/**
 * The recorder's own layout of a chunk record, read from the line's bytes: a recording is
 * almost all chunk records, and this reads one without decoding the whole line to text and
 * parsing it as JSON: the numbers are read from the bytes, and only the base64 text is decoded,
 * then checked as the full parse checks it.
 * Anything else — another record, another key order, whitespace, an escape, damage — gives
 * null, and the line is read by the full parse (`parseRecord`), which reports what is wrong.
 * What this accepts, the full parse accepts as the same record.
 */

const PREFIX = '{"type":"chunk","leg":';
const KEYS = [',"seq":', ',"offset":', ',"t":', ',"bytes":"'] as const;
const SUFFIX = '"}';

const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
/** A JSON number: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`, the grammar `Number()` and `JSON.parse` read alike. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const ascii = createUtf8Decoder();
const bytesOf = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const PREFIX_BYTES = bytesOf(PREFIX);
const KEY_BYTES = KEYS.map(bytesOf);

/** Whether `bytes` at `at` starts with `expected`. */
function startsWith(bytes: Uint8Array, at: number, end: number, expected: Uint8Array): boolean {
  if (end - at < expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/**
 * The JSON number on bytes [at, its comma): its value and where it ends, or null. Plain
 * integers (every number the recorder writes but a fractional time) are read digit by digit;
 * anything else is checked against the JSON grammar and read by `Number`, which reads a valid
 * JSON number exactly as `JSON.parse` does.
 */
function readNumber(bytes: Uint8Array, at: number, end: number): { value: number; end: number } | null {
  let value = 0;
  let plain = true;
  let i = at;
  for (; i < end; i++) {
    const c = bytes[i] as number;
    if (c === 0x2c) break;
    if (c >= 0x30 && c <= 0x39) value = value * 10 + (c - 0x30);
    else if (c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) plain = false;
    else return null;
  }
  const digits = i - at;
  if (i === end || digits === 0) return null;
  // Up to 15 digits stay exact; a leading zero is not JSON ("0" alone is).
  if (plain && digits <= 15 && (bytes[at] !== 0x30 || digits === 1)) return { value, end: i };
  const text = ascii.decode(bytes.subarray(at, i));
  return JSON_NUMBER.test(text) ? { value: Number(text), end: i } : null;
}

const isInt = (v: number): boolean => Number.isInteger(v) && v >= 0;

/** 1 for a byte of base64's alphabet, else 0 (the padding `=` too). */
const ALPHABET_BYTE = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') ALPHABET_BYTE[c.charCodeAt(0)] = 1;
const PAD = 0x3d;
const inAlphabet = (byte: number | undefined): number => ALPHABET_BYTE[byte as number] as number;

/**
 * `isPaddedBase64` on bytes [start, end), before they are decoded to text: a recording is
 * almost all base64, and this runs over all of it. Whole quads of the alphabet, four bytes a
 * step and-ed without a branch (twice the speed of the native regular expression over the
 * decoded text: bench/base64-check.bench.ts), then the last quad, the only place for `=`.
 */
export function isPaddedBase64Bytes(bytes: Uint8Array, start: number, end: number): boolean {
  if ((end - start) % 4 !== 0) return false;
  if (end === start) return true;
  const last = end - 4;
  let all = 1;
  for (let i = start; i < last; i += 4)
    all &= inAlphabet(bytes[i]) & inAlphabet(bytes[i + 1]) & inAlphabet(bytes[i + 2]) & inAlphabet(bytes[i + 3]);
  const third = bytes[last + 2];
  const fourth = bytes[last + 3];
  return (
    (all & inAlphabet(bytes[last]) & inAlphabet(bytes[last + 1])) === 1 &&
    (inAlphabet(fourth) === 1 ? inAlphabet(third) === 1 : fourth === PAD && (third === PAD || inAlphabet(third) === 1))
  );
}

/** The chunk record on bytes [start, end) of a line written in the recorder's layout; null for any other line. */
export function parseChunkLine(bytes: Uint8Array, start: number, end: number): ChunkRecord | null {
  if (!startsWith(bytes, start, end, PREFIX_BYTES)) return null;
  const numbers: number[] = [];
  let at = start + PREFIX_BYTES.length;
  for (const key of KEY_BYTES) {
    const number = readNumber(bytes, at, end);
    if (!number || !startsWith(bytes, number.end, end, key)) return null;
    numbers.push(number.value);
    at = number.end + key.length;
  }
  const [leg, seq, offset, t] = numbers as [number, number, number, number];
  if (!isInt(leg) || !isInt(seq) || !isInt(offset) || !Number.isFinite(t)) return null;
  // The base64 text ends at the closing quote; the same check as the full parse's, on its bytes.
  const textStart = at;
  const textEnd = end - SUFFIX.length;
  if (textEnd < textStart || bytes[textEnd] !== QUOTE || bytes[textEnd + 1] !== CLOSE_BRACE) return null;
  if (!isPaddedBase64Bytes(bytes, textStart, textEnd)) return null;
  return { type: 'chunk', leg, t, bytes: ascii.decode(bytes.subarray(textStart, textEnd)), seq, offset };
}
