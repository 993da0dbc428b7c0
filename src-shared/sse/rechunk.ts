/**
 * Re-splitting a byte stream into other network chunks: the CLI's `--rechunk`, the replay
 * server's re-chunking, and the chunking-invariance tests (a decoder must give identical
 * results whole, byte by byte, or cut at seeded random points — inside multi-byte UTF-8
 * sequences and between CR and LF).
 */

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
