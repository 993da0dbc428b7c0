/** The chunking-invariance set used by every decoder test. */
import { splitEvery, splitRandom } from '../sse/rechunk';

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
