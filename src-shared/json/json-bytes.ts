/**
 * The bytes of JSON's structure, for the scanners that read JSON without parsing it (the JSON
 * array framer of a live body, the file splitter of recordings and HAR, the framing sniffer).
 * JSON's structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence,
 * so these scans run on bytes and their offsets are exact.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
/** UTF-8's byte-order mark, which a body or file may open with. */
export const BOM = [0xef, 0xbb, 0xbf] as const;

/** JSON's insignificant whitespace (RFC 8259 §2). */
export const isJsonSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Index of the first unescaped `"` at or after `from` (no escape is open at `from`), or -1. */
export function closingQuote(bytes: Uint8Array, from: number): number {
  for (let q = bytes.indexOf(QUOTE, from); q >= 0; q = bytes.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    for (let k = q - 1; k >= from && bytes[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** Whether `bytes[from..]` ends with an odd run of backslashes (an escape continued in the next push). */
export function endsInOpenEscape(bytes: Uint8Array, from: number): boolean {
  let backslashes = 0;
  for (let k = bytes.length - 1; k >= from && bytes[k] === BACKSLASH; k--) backslashes++;
  return backslashes % 2 === 1;
}
