import { createUtf8Decoder } from '../text/utf8';

const decoder = createUtf8Decoder();

/** Default length of a text preview in a diagnostic message, in bytes. */
export const PREVIEW_BYTES = 80;

/**
 * A short quoted preview of `bytes[start, end)` for a diagnostic message: at most `max`
 * bytes, cut on a UTF-8 character boundary, control characters escaped by JSON quoting so
 * a CR or NUL in lost text is visible, and `…` when the text was longer.
 */
export function previewBytes(bytes: Uint8Array, start: number, end: number, max = PREVIEW_BYTES): string {
  let cut = end;
  if (end - start > max) {
    cut = start + max;
    // Back off to the first byte of a character: never show half of one as U+FFFD.
    while (cut > start && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  }
  const text = JSON.stringify(decoder.decode(bytes.subarray(start, cut)));
  return cut < end ? `${text}…` : text;
}

/** The same for text that is already decoded (`max` counts UTF-16 units). */
export function previewText(text: string, max = PREVIEW_BYTES): string {
  if (text.length <= max) return JSON.stringify(text);
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${JSON.stringify(text.slice(0, cut))}…`;
}
