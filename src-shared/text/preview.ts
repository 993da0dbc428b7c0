/**
 * Short quoted previews of payload text for diagnostic messages: JSON quoting makes control
 * characters visible (a CR or NUL in lost text shows as \r or \u0000), a cut never splits a
 * character and ends in `…`. Byte previews sit in messages that state the byte count already;
 * a cut text preview adds the text's length.
 */
import { createUtf8Decoder } from './utf8';

const decoder = createUtf8Decoder();

/** Default length of a preview: bytes for `previewBytes`, UTF-16 units for `previewText`. */
export const PREVIEW_LENGTH = 80;

/** `bytes[start, end)` decoded and quoted, cut after at most `max` bytes on a character boundary. */
export function previewBytes(bytes: Uint8Array, start: number, end: number, max = PREVIEW_LENGTH): string {
  let cut = end;
  if (end - start > max) {
    cut = start + max;
    // Back off to the first byte of a character: never show half of one as U+FFFD.
    while (cut > start && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  }
  const text = JSON.stringify(decoder.decode(bytes.subarray(start, cut)));
  return cut < end ? `${text}…` : text;
}

/** `text` quoted, cut after at most `max` UTF-16 units, never inside a surrogate pair. */
export function previewText(text: string, max = PREVIEW_LENGTH): string {
  if (text.length <= max) return JSON.stringify(text);
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${JSON.stringify(text.slice(0, cut))}… (${text.length} characters)`;
}
