import { base64ByteLength } from './format';
import type { ChunkRecord } from './types';

/**
 * Checks one leg's chunk records against their `seq` and `offset` (docs/recording-format.md):
 * a chunk line copied twice comes back with a number already read, a deleted one leaves a
 * gap. Records without the fields (files written before they existed) are taken as they
 * come. The indexing pass reports what this finds; the pass that streams the bytes skips the
 * same duplicates, so both agree on what the leg holds.
 */
export type ChunkVerdict =
  | { kind: 'next' }
  /** Already read: skip it. */
  | { kind: 'duplicate'; seq: number }
  /** Chunks (or bytes) are missing before this one; it is kept. */
  | { kind: 'gap'; missingChunks: number; missingBytes: number; fromOffset: number };

export interface ChunkSequence {
  check(record: ChunkRecord): ChunkVerdict;
  /** Where the next chunk is due: its number and stream offset (what the leg holds up to here, holes included). */
  next(): { seq: number; offset: number };
}

export function createChunkSequence(): ChunkSequence {
  let nextSeq = 0;
  let nextOffset = 0;
  return {
    check(record) {
      const size = base64ByteLength(record.bytes);
      const { seq, offset } = record;
      if (seq === undefined || offset === undefined) {
        nextSeq++;
        nextOffset += size;
        return { kind: 'next' };
      }
      if (seq < nextSeq) return { kind: 'duplicate', seq };
      const verdict: ChunkVerdict =
        seq === nextSeq && offset === nextOffset
          ? { kind: 'next' }
          : { kind: 'gap', missingChunks: seq - nextSeq, missingBytes: offset - nextOffset, fromOffset: nextOffset };
      nextSeq = seq + 1;
      nextOffset = offset + size;
      return verdict;
    },
    next: () => ({ seq: nextSeq, offset: nextOffset }),
  };
}
