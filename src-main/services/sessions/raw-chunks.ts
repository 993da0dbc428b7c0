import type { NetworkChunk } from '../../../src-shared/contract/payloads';

/**
 * The bytes of one leg, kept exactly once, as the network chunks they arrived in, with a
 * compact index (start offset and receive time per chunk) for slicing any byte range.
 */
export interface RawChunks {
  readonly bytes: number;
  readonly count: number;
  append(chunk: Uint8Array, receivedAt: number): void;
  /**
   * Appends bytes to the last chunk: the next part of a network chunk delivered in parts
   * (a replay stepping one event at a time), so the chunk table stays the network's.
   */
  extendLast(part: Uint8Array): void;
  /** A copy of bytes [start, end) (clamped to what was received). */
  slice(start: number, end: number): Uint8Array;
  /** Chunks overlapping [start, end). */
  overlapping(start: number, end: number): NetworkChunk[];
  chunk(index: number): { bytes: Uint8Array; receivedAt: number } | undefined;
}

export function createRawChunks(): RawChunks {
  const chunks: Uint8Array[] = [];
  let starts = new Float64Array(64);
  let times = new Float64Array(64);
  let total = 0;

  const grow = (): void => {
    const nextStarts = new Float64Array(starts.length * 2);
    nextStarts.set(starts);
    starts = nextStarts;
    const nextTimes = new Float64Array(times.length * 2);
    nextTimes.set(times);
    times = nextTimes;
  };

  /** Index of the chunk holding byte `offset` (the last chunk starting at or before it). */
  const chunkAt = (offset: number): number => {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  return {
    get bytes() {
      return total;
    },
    get count() {
      return chunks.length;
    },
    append(chunk, receivedAt) {
      if (chunk.byteLength === 0) return;
      if (chunks.length === starts.length) grow();
      starts[chunks.length] = total;
      times[chunks.length] = receivedAt;
      chunks.push(chunk);
      total += chunk.byteLength;
    },
    extendLast(part) {
      const lastIndex = chunks.length - 1;
      const previous = chunks[lastIndex];
      if (previous === undefined) throw new Error('There is no chunk to extend');
      if (part.byteLength === 0) return;
      // Consecutive parts of one chunk are adjacent views of its buffer: widen the view, no copy.
      const adjacent = part.buffer === previous.buffer && part.byteOffset === previous.byteOffset + previous.byteLength;
      let joined: Uint8Array;
      if (adjacent) {
        joined = new Uint8Array(previous.buffer, previous.byteOffset, previous.byteLength + part.byteLength);
      } else {
        joined = new Uint8Array(previous.byteLength + part.byteLength);
        joined.set(previous);
        joined.set(part, previous.byteLength);
      }
      chunks[lastIndex] = joined;
      total += part.byteLength;
    },
    slice(start, end) {
      const from = Math.max(0, Math.min(start, total));
      const to = Math.max(from, Math.min(end, total));
      const out = new Uint8Array(to - from);
      if (to === from) return out;
      let written = 0;
      for (let i = chunkAt(from); i < chunks.length && written < out.length; i++) {
        const chunk = chunks[i] as Uint8Array;
        const chunkStart = starts[i] as number;
        const a = Math.max(0, from - chunkStart);
        const b = Math.min(chunk.byteLength, to - chunkStart);
        out.set(chunk.subarray(a, b), written);
        written += b - a;
      }
      return out;
    },
    overlapping(start, end) {
      const out: NetworkChunk[] = [];
      if (chunks.length === 0 || start >= total) return out;
      for (let i = chunkAt(Math.max(0, start)); i < chunks.length; i++) {
        const chunkStart = starts[i] as number;
        if (chunkStart >= end) break;
        out.push({ index: i, byteStart: chunkStart, byteEnd: chunkStart + (chunks[i] as Uint8Array).byteLength, receivedAt: times[i] as number });
      }
      return out;
    },
    chunk(index) {
      const bytes = chunks[index];
      return bytes ? { bytes, receivedAt: times[index] as number } : undefined;
    },
  };
}
