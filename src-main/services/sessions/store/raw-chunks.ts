import type { NetworkChunk, RawBytes } from '../../../../src-shared/contract/payloads';
import { encodeBase64 } from '../../../../src-shared/recording/base64';
import type { FileSpan } from '../../importers/types';
import { UintColumn } from './columns';
import type { RecordingFile } from './recording-file';
import type { SpoolFile } from './spool-file';

/**
 * The bytes of one leg, kept exactly once, as the network chunks they arrived in, with a
 * compact index (start offset and receive time per chunk) for slicing any byte range. With a
 * spool file the bytes live on disk (the leg's bytes are one contiguous run of the file: legs
 * of a session receive one after the other) and only the index stays in memory. A leg read
 * from a recording keeps nothing but where each chunk record is: its bytes are read back from
 * the recording itself.
 */
export interface RawChunks {
  readonly bytes: number;
  readonly count: number;
  /** `record`: the chunk record these bytes came from (a leg read from a recording needs it; the others ignore it). */
  append(chunk: Uint8Array, receivedAt: number, record?: FileSpan): void;
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
  receivedAt(index: number): number | undefined;
}

/** Where a leg's bytes are kept: a spool file, the recording the leg is read from (with its number there), or memory. */
export function createRawChunks(store?: SpoolFile | { recording: RecordingFile; leg: number }): RawChunks {
  if (!store) return memoryChunks();
  return 'recording' in store ? recordedChunks(store.recording, store.leg) : spooledChunks(store);
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

  receivedAt(i: number): number | undefined {
    return i >= 0 && i < this.count && Number.isInteger(i) ? this.times[i] : undefined;
  }

  /** Bytes [start, end) of chunk `i` in a leg of `total` bytes. */
  span(i: number, total: number): { start: number; end: number } {
    return { start: this.starts[i] as number, end: i + 1 < this.count ? (this.starts[i + 1] as number) : total };
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
      const receivedAt = index.receivedAt(i);
      if (receivedAt === undefined) return undefined;
      const { start, end } = index.span(i, total);
      return { bytes: spool.read(base + start, base + end).slice(), receivedAt };
    },
    receivedAt: (i) => index.receivedAt(i),
  };
}

/**
 * A leg read from a recording: per chunk, where its record's line is in the file (the bytes
 * are decoded from it again when read).
 */
function recordedChunks(recording: RecordingFile, leg: number): RawChunks {
  const index = new ChunkIndex();
  const lineStarts = new UintColumn();
  const lineLengths = new UintColumn();
  let total = 0;

  const bytesOf = (i: number): Uint8Array => {
    const { start, end } = index.span(i, total);
    const line = lineStarts.get(i);
    return recording.chunk({ start: line, end: line + lineLengths.get(i) }, leg, end - start);
  };

  return {
    get bytes() {
      return total;
    },
    get count() {
      return index.count;
    },
    append(chunk, receivedAt, record) {
      if (!record) throw new Error('A leg read from a recording takes only chunks read from it');
      if (chunk.byteLength === 0) return;
      lineStarts.set(index.count, record.start);
      lineLengths.set(index.count, record.end - record.start);
      index.add(total, receivedAt);
      total += chunk.byteLength;
    },
    extendLast() {
      throw new Error('A leg read from a recording keeps its chunks as recorded');
    },
    slice: (start, end) => sliceOfChunks(index, total, start, end, bytesOf),
    overlapping: (start, end) => index.overlapping(start, end, total),
    chunk(i) {
      const receivedAt = index.receivedAt(i);
      return receivedAt === undefined ? undefined : { bytes: bytesOf(i), receivedAt };
    },
    receivedAt: (i) => index.receivedAt(i),
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
    slice: (start, end) => sliceOfChunks(index, total, start, end, (i) => chunks[i] as Uint8Array),
    overlapping: (start, end) => index.overlapping(start, end, total),
    chunk(i) {
      const bytes = chunks[i];
      return bytes ? { bytes, receivedAt: index.times[i] as number } : undefined;
    },
    receivedAt: (i) => index.receivedAt(i),
  };
}

/** A copy of bytes [start, end) (clamped to the leg's `total`) of a leg kept as separate chunks. */
function sliceOfChunks(
  index: ChunkIndex,
  total: number,
  start: number,
  end: number,
  chunkAt: (i: number) => Uint8Array,
): Uint8Array {
  const from = Math.max(0, Math.min(start, total));
  const to = Math.max(from, Math.min(end, total));
  const out = new Uint8Array(to - from);
  for (let i = index.at(from), written = 0; i < index.count && written < out.length; i++) {
    const chunk = chunkAt(i);
    const chunkStart = index.starts[i] as number;
    const part = chunk.subarray(Math.max(0, from - chunkStart), Math.min(chunk.byteLength, to - chunkStart));
    out.set(part, written);
    written += part.byteLength;
  }
  return out;
}

/** Bytes [start, end) of a leg's raw bytes as the contract carries them: at most `cap`, base64, with the chunks they overlap. */
export function rawBytesOf(leg: number, raw: RawChunks, start: number, end: number, cap: number): RawBytes {
  const from = Math.min(start, raw.bytes);
  const wanted = Math.min(Math.max(end, from), raw.bytes);
  const to = Math.min(wanted, from + cap);
  return {
    leg,
    byteStart: from,
    byteEnd: to,
    base64: encodeBase64(raw.slice(from, to)),
    truncated: to < wanted,
    chunks: raw.overlapping(from, Math.max(to, from + 1)),
  };
}
