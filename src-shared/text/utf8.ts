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

/** Byte length of `text` in UTF-8 without allocating (lone surrogates count as U+FFFD: 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
