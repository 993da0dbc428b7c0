/**
 * UTF-8 helpers over the WHATWG Encoding API, which every runtime of this project has
 * (Node, Chromium, Electron). src-shared sees no DOM or Node types, so the constructor is
 * typed here, once.
 */
interface Utf8DecoderLike {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
interface Utf8EncoderLike {
  encode(input: string): Uint8Array;
  encodeInto(input: string, destination: Uint8Array): { read: number; written: number };
}
interface EncodingApi {
  TextDecoder: new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) => Utf8DecoderLike;
  TextEncoder: new () => Utf8EncoderLike;
}

const api = globalThis as unknown as EncodingApi;

/** A decoder that replaces invalid sequences with U+FFFD and keeps a leading BOM. */
export function createUtf8Decoder(options: { fatal?: boolean } = {}): Utf8DecoderLike {
  return new api.TextDecoder('utf-8', { fatal: options.fatal ?? false, ignoreBOM: true });
}

const encoder = new api.TextEncoder();

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Encode `text` into `destination`; true when it was all ASCII and fitted: every character
 * read, one byte each.
 */
export function encodeAsciiInto(text: string, destination: Uint8Array): boolean {
  const { read, written } = encoder.encodeInto(text, destination);
  return read === text.length && written === read;
}

/**
 * Scratch space for `utf8ByteLength`: the native encoder counts bytes many times faster than
 * a loop over the characters. It grows to fit three bytes per character of the longest
 * string measured, up to SCRATCH_MAX_BYTES; longer strings are counted a window at a time.
 */
let scratch = new Uint8Array(16 * 1024);
const SCRATCH_MAX_BYTES = 1024 * 1024;
/** Characters per window of a long string: three bytes each fill the largest scratch buffer. */
const WINDOW_CHARS = Math.floor(SCRATCH_MAX_BYTES / 3);

/** Byte length of `text` in UTF-8 (lone surrogates count as U+FFFD: 3 bytes). */
export function utf8ByteLength(text: string): number {
  const worst = text.length * 3;
  if (worst > scratch.length) {
    if (worst > SCRATCH_MAX_BYTES) return windowedUtf8Bytes(text);
    scratch = new Uint8Array(Math.min(SCRATCH_MAX_BYTES, Math.max(worst, scratch.length * 2)));
  }
  return encoder.encodeInto(text, scratch).written;
}

/** `utf8ByteLength` of a string too long for the scratch buffer: encoded a window at a time. */
function windowedUtf8Bytes(text: string): number {
  if (scratch.length < SCRATCH_MAX_BYTES) scratch = new Uint8Array(SCRATCH_MAX_BYTES);
  let bytes = 0;
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + WINDOW_CHARS);
    // A window never ends between the two halves of a surrogate pair, which would each count
    // as a lone surrogate (three bytes, where the pair is four).
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
    bytes += encoder.encodeInto(text.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
