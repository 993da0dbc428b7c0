/** The chunking-invariance set used by every decoder test. */
import { seededRandom, splitEvery, splitRandom } from '../sse/rechunk';

export { seededRandom, splitEvery, splitRandom } from '../sse/rechunk';

export interface Chunking {
  name: string;
  chunks: Uint8Array[];
}

/** The standard set: whole, byte by byte, and `seeds` random splittings. */
export function chunkings(bytes: Uint8Array, seeds: readonly number[] = [1, 2, 3, 42, 1337]): Chunking[] {
  return [
    { name: 'whole', chunks: [bytes] },
    { name: 'byte-by-byte', chunks: splitEvery(bytes, 1) },
    ...seeds.map((seed) => ({ name: `random:${seed}`, chunks: splitRandom(bytes, seed) })),
  ];
}

export interface TextChunking {
  name: string;
  pieces: string[];
}

/**
 * The same set for decoders fed with text (the inline parser gets a text block's deltas):
 * whole, one UTF-16 code unit at a time, and cuts at seeded random points.
 */
export function textChunkings(
  text: string,
  seeds: readonly number[] = [1, 2, 3, 42, 1337],
  maxPiece = 16,
): TextChunking[] {
  const random = (seed: number): string[] => {
    const next = seededRandom(seed);
    const pieces: string[] = [];
    for (let i = 0; i < text.length;) {
      const size = 1 + Math.floor(next() * maxPiece);
      pieces.push(text.slice(i, i + size));
      i += size;
    }
    return pieces;
  };
  return [
    { name: 'whole', pieces: [text] },
    { name: 'per-character', pieces: Array.from({ length: text.length }, (_, i) => text.charAt(i)) },
    ...seeds.map((seed) => ({ name: `random:${seed}`, pieces: random(seed) })),
  ];
}
