import type { ChunkCut } from '../../replay/replay';
import { cutAfterFirstEvent, cutBeforeSecondEvent, type ByteHistory } from '../../replay/replay-cuts';
import { legIsStream } from '../../importers/types';

/**
 * Where a replay step or seek cuts the chunk it delivers (see replay-player.ts for what a step
 * is). Bytes of a non-stream leg (an error page) are kept whole: there are no events to cut at.
 */

const streamed = (at: Parameters<ChunkCut>[1]): boolean => legIsStream(at.leg);

/**
 * One step: a network chunk up to before its second event (the chunk itself when it completes
 * at most one), blocks of a file up to the end of the next event.
 */
export function stepCut(networkChunks: boolean, history: () => ByteHistory): ChunkCut {
  return (rest, at) => {
    if (!streamed(at)) return rest.length;
    return networkChunks ? cutBeforeSecondEvent(rest, history()) : cutAfterFirstEvent(rest, history());
  };
}

/**
 * A seek to the envelope whose frame ends at `target`: whole chunks before the one where that
 * frame ends, that one up to there; past it (a frame whose CR ending waits for the next byte),
 * up to the next event end.
 */
export function seekCut(target: { leg: number; byteEnd: number } | undefined, history: () => ByteHistory): ChunkCut {
  return (rest, at) => {
    if (!streamed(at) || !target || at.leg.index < target.leg) return rest.length;
    if (at.leg.index === target.leg && at.legOffset < target.byteEnd) return target.byteEnd - at.legOffset;
    return cutAfterFirstEvent(rest, history());
  };
}
