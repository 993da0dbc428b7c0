import { createUtf8Decoder, encodeAsciiInto, encodeUtf8 } from './utf8';

const utf8 = createUtf8Decoder();

/**
 * V8 neither slices nor concatenates strings shorter than this: it copies them, so they share
 * memory with nothing already (its SlicedString and ConsString minimum length).
 */
const V8_COPIES_BELOW_CHARS = 13;

/** Below this many characters a string is copied by concatenation, whatever its characters. */
const COMPACT_MIN_CHARS = 64;

/** Reused for the UTF-8 round trip of texts up to SCRATCH_MAX_BYTES; it grows to the longest. */
let scratch = new Uint8Array(16 * 1024);
const SCRATCH_MAX_BYTES = 1024 * 1024;

/**
 * A one-byte-per-character copy of `text` when it is ASCII, else null. Encoding it into
 * exactly `text.length` bytes tells which: only ASCII is read whole into them. That costs a
 * non-ASCII text an encode of most of it, but spares ASCII (the long items of a stream: JSON
 * payloads) a scan for non-ASCII before the encode.
 */
function compactAscii(text: string): string | null {
  const length = text.length;
  if (length > SCRATCH_MAX_BYTES) {
    const bytes = encodeUtf8(text);
    return bytes.length === length ? utf8.decode(bytes) : null;
  }
  if (length > scratch.length)
    scratch = new Uint8Array(Math.min(SCRATCH_MAX_BYTES, Math.max(length, scratch.length * 2)));
  const room = scratch.subarray(0, length);
  return encodeAsciiInto(text, room) ? utf8.decode(room) : null;
}

/**
 * `text` as a string of its own. V8 represents a slice of a long string as a view that keeps
 * the whole original alive: a frame's data is cut from the text of a whole decoded network
 * chunk, and anything that keeps the data (a block's content, a stored envelope) would keep
 * every chunk's text alive with it. Slicing a concatenation makes V8 copy it first, so the
 * result shares no memory with `text`'s original; in other engines this is merely a copy.
 *
 * A copy keeps the original's character width: one non-Latin-1 character anywhere in a
 * chunk makes V8 store the whole chunk's text, and every slice copied from it, with two bytes
 * per character. ASCII text is therefore copied through UTF-8 (an exact round trip for
 * ASCII), which gives a string of one byte per character: half the memory for what is kept.
 */
export function detachString(text: string): string {
  if (text.length < V8_COPIES_BELOW_CHARS) return text;
  return (text.length >= COMPACT_MIN_CHARS ? compactAscii(text) : null) ?? ` ${text}`.slice(1);
}

/**
 * `text` as a flat string of its own, for a short string kept per block (a tool-use id):
 * detachString copies short text by slicing a concatenation, which V8 keeps as a 32-byte
 * slice over its flat copy; an ASCII id is copied through UTF-8 instead, one flat one-byte
 * string (about 56 bytes for a 36-character id, against 80).
 */
export function detachFlat(text: string): string {
  if (text.length < V8_COPIES_BELOW_CHARS) return text;
  return compactAscii(text) ?? detachString(text);
}
