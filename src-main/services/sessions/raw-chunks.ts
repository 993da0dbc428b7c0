import type { NetworkChunk } from '../../../src-shared/contract/payloads';
import type { SpoolFile } from './spool-file';

/**
 * The bytes of one leg, kept exactly once, as the network chunks they arrived in, with a
 * compact index (start offset and receive time per chunk) for slicing any byte range. With a
 * spool file the bytes live on disk (the leg's bytes are one contiguous run of the file: legs
 * of a session receive one after the other) and only the index stays in memory.
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

export function createRawChunks(spool?: SpoolFile): RawChunks {
  return spool ? spooledChunks(spool) : memoryChunks();
}

/** Start offset and receive time per chunk, in growable columns. */
class ChunkIndex {
  count = 0;
  starts = new Float64Array(64);
  times = new Float64Array(64);

  add(start: number, receivedAt: number): void {
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const times = new Float64Array(this.times.length * 2);
      times.set(this.times);
      this.times = times;
    }
    this.starts[this.count] = start;
    this.times[this.count] = receivedAt;
    this.count += 1;
  }

  /** Index of the chunk holding byte `offset` (the last chunk starting at or before it). */
  at(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Chunks overlapping [start, end) of a stream of `total` bytes. */
  overlapping(start: number, end: number, total: number): NetworkChunk[] {
    const out: NetworkChunk[] = [];
    if (this.count === 0 || start >= total) return out;
    for (let i = this.at(Math.max(0, start)); i < this.count; i++) {
      const chunkStart = this.starts[i] as number;
      if (chunkStart >= end) break;
      const chunkEnd = i + 1 < this.count ? (this.starts[i + 1] as number) : total;
      out.push({ index: i, byteStart: chunkStart, byteEnd: chunkEnd, receivedAt: this.times[i] as number });
    }
    return out;
  }
}

function spooledChunks(spool: SpoolFile): RawChunks {
  const index = new ChunkIndex();
  /** Where the leg's bytes start in the spool file (set by the first chunk). */
  let base = -1;
  let total = 0;

  const write = (bytes: Uint8Array): void => {
    const at = spool.append(bytes);
    if (base < 0) base = at;
    else if (at !== base + total) throw new Error('Two legs of one session were receiving at once');
    total += bytes.byteLength;
  };

  return {
    get bytes() {
      return total;
    },
    get count() {
      return index.count;
    },
    append(chunk, receivedAt) {
      if (chunk.byteLength === 0) return;
      const start = total;
      // Indexed once stored: a chunk the spool could not take is not there to read.
      write(chunk);
      index.add(start, receivedAt);
    },
    extendLast(part) {
      if (index.count === 0) throw new Error('There is no chunk to extend');
      if (part.byteLength > 0) write(part);
    },
    slice(start, end) {
      const from = Math.max(0, Math.min(start, total));
      const to = Math.max(from, Math.min(end, total));
      return to === from ? new Uint8Array(0) : spool.read(base + from, base + to).slice();
    },
    overlapping: (start, end) => index.overlapping(start, end, total),
    chunk(i) {
      if (i < 0 || i >= index.count || !Number.isInteger(i)) return undefined;
      const start = index.starts[i] as number;
      const end = i + 1 < index.count ? (index.starts[i + 1] as number) : total;
      return { bytes: spool.read(base + start, base + end).slice(), receivedAt: index.times[i] as number };
    },
  };
}

function memoryChunks(): RawChunks {
  const chunks: Uint8Array[] = [];
  const index = new ChunkIndex();
  let total = 0;

  return {
    get bytes() {
      return total;
    },
    get count() {
      return chunks.length;
    },
    append(chunk, receivedAt) {
      if (chunk.byteLength === 0) return;
      index.add(total, receivedAt);
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
      for (let i = index.at(from); i < chunks.length && written < out.length; i++) {
        const chunk = chunks[i] as Uint8Array;
        const chunkStart = index.starts[i] as number;
        const a = Math.max(0, from - chunkStart);
        const b = Math.min(chunk.byteLength, to - chunkStart);
        out.set(chunk.subarray(a, b), written);
        written += b - a;
      }
      return out;
    },
    overlapping: (start, end) => index.overlapping(start, end, total),
    chunk(i) {
      const bytes = chunks[i];
      return bytes ? { bytes, receivedAt: index.times[i] as number } : undefined;
    },
  };
}
