import { chunkingBudget, serializeEnvelope, type EnvelopeShape } from '../../../src-shared/envelope/budget';
import { encodeUtf8, utf8ByteLength } from '../../../src-shared/text/utf8';

const decoder = new TextDecoder('utf-8');

/**
 * The upstream `_chunk_and_emit`: one buffered payload as JSON envelopes. The budget
 * (2048 bytes minus the empty envelope's overhead) applies to the unescaped payload bytes;
 * only the last chunk may carry `final: true`.
 */
export function chunkEnvelopes(shape: EnvelopeShape, payload: string, finalOnLast: boolean): string[] {
  const { maxDeltaBytes } = chunkingBudget(shape);
  if (utf8ByteLength(payload) <= maxDeltaBytes) return [serializeEnvelope(shape, finalOnLast, payload)];
  const pieces = splitUtf8(payload, maxDeltaBytes);
  return pieces.map((piece, i) => serializeEnvelope(shape, finalOnLast && i === pieces.length - 1, piece));
}

/**
 * The upstream `_utf8_safe_split`: pieces of at most `maxBytes` UTF-8 bytes; a cut that
 * lands on a continuation byte (0b10xxxxxx) backs up to the start of that character.
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  const bytes = encodeUtf8(text);
  const pieces: string[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    let end = Math.min(offset + maxBytes, bytes.length);
    while (end < bytes.length && end > offset && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    // A budget smaller than one character (never with the 64-byte floor) would loop for ever.
    if (end === offset) end = Math.min(offset + 4, bytes.length);
    pieces.push(decoder.decode(bytes.subarray(offset, end)));
    offset = end;
  }
  return pieces;
}
