import { createUtf8Decoder } from '../text/utf8';

/**
 * Standard base64 (RFC 4648 §4, with padding) over Uint8Array. src-shared has neither
 * Node's Buffer nor the DOM's atob, and chunk bytes must round-trip exactly, so this is a
 * small table-driven codec: linear, no string concatenation per byte.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = new Uint8Array(64);
/** Byte value → 6-bit value, 255 for bytes outside the alphabet. */
const DECODE = new Uint8Array(256).fill(255);
for (let i = 0; i < 64; i++) {
  ENCODE[i] = ALPHABET.charCodeAt(i);
  DECODE[ALPHABET.charCodeAt(i)] = i;
}
const PAD = 0x3d;

/**
 * The encoded characters are ASCII, which is UTF-8 as it is: the native decoder turns them
 * into a string some fifty times faster than String.fromCharCode over blocks of them (a
 * recorder encodes every chunk of a live stream).
 */
const ascii = createUtf8Decoder();
const asciiToString = (codes: Uint8Array): string => ascii.decode(codes);

export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o++] = ENCODE[n >>> 18] as number;
    out[o++] = ENCODE[(n >>> 12) & 63] as number;
    out[o++] = ENCODE[(n >>> 6) & 63] as number;
    out[o++] = ENCODE[n & 63] as number;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0);
    out[o++] = ENCODE[n >>> 18] as number;
    out[o++] = ENCODE[(n >>> 12) & 63] as number;
    out[o++] = rest === 2 ? (ENCODE[(n >>> 6) & 63] as number) : PAD;
    out[o++] = PAD;
  }
  return asciiToString(out);
}

/** The 6-bit value of the character at `i`, or 255 when it is not in the alphabet. */
function sextet(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (DECODE[code] as number) : 255;
}

/**
 * How many bytes base64 text from `start` on stands for, without decoding it: three for every
 * four characters, less its `=` padding (padded or not; a size to show, not a validation).
 */
export function base64DecodedLength(text: string, start = 0): number {
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === PAD) end--;
  return Math.floor(((end - start) * 3) / 4);
}

/** Decodes padded base64; returns null for anything else (a damaged record). */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  let padding = 0;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === PAD)
    padding = text.charCodeAt(text.length - 2) === PAD ? 2 : 1;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  const full = text.length - (padding > 0 ? 4 : 0);
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    if ((a | b | c | d) > 63) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (padding > 0) {
    const a = sextet(text, full);
    const b = sextet(text, full + 1);
    const c = padding === 1 ? sextet(text, full + 2) : 0;
    if ((a | b | c) > 63) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >>> 16;
    if (padding === 1) out[o] = (n >>> 8) & 0xff;
  }
  return out;
}

const strictUtf8 = createUtf8Decoder({ fatal: true });

/**
 * Bytes as a string a JSON file can carry without loss: their UTF-8 text when they are valid
 * UTF-8 (readable, and what almost every stream is), else base64 (a HAR body, an exported
 * event's wire bytes).
 */
export function bytesAsText(bytes: Uint8Array): { text: string; base64: boolean } {
  try {
    return { text: strictUtf8.decode(bytes), base64: false };
  } catch {
    return { text: encodeBase64(bytes), base64: true };
  }
}
