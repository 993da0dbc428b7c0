import { SEGMENT_BLOCK_KIND } from '../../../src-shared/dialects/segment-events/decoder';
import type { Block } from '../../../src-shared/reconstruct/types';

/**
 * The envelopes that carry part of a segment of the given types. A text block's content is its
 * envelopes' deltas in order, so each envelope covers a range of the block's raw text, and a
 * segment covers [start, end) of it. One pass over each text block's envelopes and segments.
 */
export function segmentSeqs(blocks: readonly Block[], types: ReadonlySet<string>, deltaLength: (seq: number) => number): Set<number> {
  const seqs = new Set<number>();
  for (const block of blocks) {
    const segments = block.segments?.filter((s) => types.has(s.type));
    if (!segments || segments.length === 0) continue;
    if (block.kind === SEGMENT_BLOCK_KIND) {
      // A block of the segment-events dialect is its segment: start, content and end events.
      for (const seq of block.envelopes) seqs.add(seq);
      continue;
    }
    let offset = 0;
    let next = 0;
    for (const seq of block.envelopes) {
      const length = deltaLength(seq);
      const end = offset + length;
      // Segments are ordered and do not overlap: skip those that end before this envelope.
      while (next < segments.length && (segments[next]?.end ?? 0) <= offset && length > 0) next++;
      const segment = segments[next];
      if (segment && length > 0 && segment.start < end && segment.end > offset) seqs.add(seq);
      offset = end;
    }
  }
  return seqs;
}
