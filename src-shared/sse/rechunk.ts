/**
 * Re-splitting a byte stream into other network chunks: the CLI's `--rechunk`, the replay
 * server's re-chunking, and the chunking-invariance tests (a decoder must give identical
 * results whole, byte by byte, or cut at seeded random points — inside multi-byte UTF-8
 * sequences and between CR and LF).
 */
import { createHeldBytes } from '../bytes/held-bytes';

/** mulberry32: a tiny seeded PRNG, so every failing split can be reproduced from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces of exactly `size` bytes (the last may be shorter), as views of `bytes`. */
export function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, Math.min(i + size, bytes.length)));
  return out;
}

/** Cut at random points; chunk sizes 1..maxChunk bytes. */
export function splitRandom(bytes: Uint8Array, seed: number, maxChunk = 64): Uint8Array[] {
  const random = seededRandom(seed);
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    const size = 1 + Math.floor(random() * maxChunk);
    out.push(bytes.subarray(i, Math.min(i + size, bytes.length)));
    i += size;
  }
  return out;
}

/**
 * `splitEvery` for a stream that arrives in chunks and must be passed on as it comes (the
 * replay server writes each recorded chunk at its recorded time): the pieces of all pushes
 * and `end()`, in order, are exactly `splitEvery` of the whole stream. Bytes are held only
 * until a piece is full, so a piece goes out with the chunk that completed it.
 */
export interface Rechunker {
  push(bytes: Uint8Array): Uint8Array[];
  /** The held remainder, if any. */
  end(): Uint8Array[];
}

export function createRechunker(size: number): Rechunker {
  const held = createHeldBytes();
  return {
    push(bytes) {
      const pieces: Uint8Array[] = [];
      let from = 0;
      if (held.length > 0) {
        const need = size - held.length;
        if (bytes.length < need) {
          held.hold(bytes);
          return pieces;
        }
        pieces.push(held.take(bytes.subarray(0, need)));
        from = need;
      }
      for (; from + size <= bytes.length; from += size) pieces.push(bytes.subarray(from, from + size));
      if (from < bytes.length) held.hold(bytes.subarray(from));
      return pieces;
    },
    end() {
      return held.length > 0 ? [held.take()] : [];
    },
  };
}
