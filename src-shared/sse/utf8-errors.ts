/**
 * Where a WHATWG UTF-8 decoder emits U+FFFD. The decoder itself (TextDecoder) only gives the
 * text; a diagnostic needs the byte offset of each bad sequence, so this walks the bytes with
 * the same state machine (Encoding Standard, "UTF-8 decoder": one U+FFFD per maximal
 * subpart of an invalid sequence). It runs only on lines whose decoded text holds U+FFFD,
 * so valid streams never pay for it.
 */

export interface ByteRange {
  start: number;
  end: number;
}

/** The invalid sequences in `bytes[start, end)`, as offsets into `bytes`, in order. */
export function findInvalidUtf8(bytes: Uint8Array, start: number, end: number): ByteRange[] {
  const bad: ByteRange[] = [];
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let sequenceStart = start;
  for (let i = start; i < end; i++) {
    const byte = bytes[i] as number;
    if (needed === 0) {
      if (byte <= 0x7f) continue;
      sequenceStart = i;
      if (byte >= 0xc2 && byte <= 0xdf) {
        needed = 1;
      } else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3;
      } else {
        bad.push({ start: i, end: i + 1 });
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      // The sequence so far is one maximal subpart; the offending byte starts afresh.
      bad.push({ start: sequenceStart, end: i });
      needed = 0;
      seen = 0;
      lower = 0x80;
      upper = 0xbf;
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    if (++seen === needed) {
      needed = 0;
      seen = 0;
    }
  }
  if (needed !== 0) bad.push({ start: sequenceStart, end });
  return bad;
}

/** `C3 28` style rendering of a few bytes, for messages. */
export function hexBytes(bytes: Uint8Array, start: number, end: number, max = 8): string {
  const parts: string[] = [];
  for (let i = start; i < end && parts.length < max; i++)
    parts.push((bytes[i] as number).toString(16).toUpperCase().padStart(2, '0'));
  return end - start > max ? `${parts.join(' ')} …` : parts.join(' ');
}
