import { chunkingBudget } from '../envelope/budget';
import type { Envelope } from '../envelope/types';
import { KIND, isStreamedEnvelopeType, kindInfo } from '../envelope/vocabulary';

/** How many underfull chunks are listed one by one; the counts cover all of them. */
export const UNDERFULL_LIST_CAP = 100;

export interface ChunkFullnessEntry {
  leg: number;
  envelope: number;
  agent: string;
  type: string;
  deltaBytes: number;
  maxDeltaBytes: number;
}

/**
 * How full the non-last chunks of multi-envelope buffered payloads (JSON dialect) are against
 * `maxDeltaBytes` of the chunking algorithm of docs/protocols/json-envelopes.md (chunkingBudget()). A chunk produced by that
 * algorithm is full, or short only by the next character's UTF-8 bytes (the split backs up to
 * a character boundary). Underfull and overfull chunks were cut by something else.
 */
export interface ChunkFullness {
  chunks: number;
  full: number;
  underfull: number;
  overfull: number;
  /** deltaBytes / maxDeltaBytes over the measured chunks; 0 when there are none. */
  meanFullness: number;
  minFullness: number;
  /** The first UNDERFULL_LIST_CAP underfull or overfull chunks. */
  irregularChunks: ChunkFullnessEntry[];
}

/** UTF-8 bytes of the first character of `text` (0 for an empty string). */
function firstCharBytes(text: string): number {
  if (text === '') return 0;
  const code = text.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/** Types that are never chunked by the budget: streamed deltas, one citation or image each. */
function isChunkedPayloadType(type: string): boolean {
  return !isStreamedEnvelopeType(type) && kindInfo(type)?.attaches !== true;
}

/** A non-final chunk waiting for the next envelope of its (agent, type), which says whether it was the last. */
interface PendingChunk extends ChunkFullnessEntry {
  id: unknown;
  /** A tool_result_image came in between: the chunk ended the text part of a multimodal result. */
  interrupted: boolean;
}

/**
 * Chunk fullness (ChunkFullness) as envelopes arrive: one pending chunk per open payload of an
 * (agent, type), judged when the next envelope of that payload shows it was not the last.
 */
export function createChunkFullness(budget: number) {
  const pendingChunks = new Map<string, PendingChunk>();
  const fullness = {
    chunks: 0,
    full: 0,
    underfull: 0,
    overfull: 0,
    sum: 0,
    min: Infinity,
    irregular: [] as ChunkFullnessEntry[],
  };

  function judge(chunk: PendingChunk, nextFirstCharBytes: number): void {
    const ratio = chunk.deltaBytes / chunk.maxDeltaBytes;
    fullness.chunks++;
    fullness.sum += ratio;
    if (ratio < fullness.min) fullness.min = ratio;
    const shortBy = chunk.maxDeltaBytes - chunk.deltaBytes;
    let irregular = false;
    if (shortBy < 0) {
      fullness.overfull++;
      irregular = true;
    } else if (shortBy === 0 || nextFirstCharBytes > shortBy) fullness.full++;
    else {
      fullness.underfull++;
      irregular = true;
    }
    if (irregular && fullness.irregular.length < UNDERFULL_LIST_CAP) {
      const { id: _id, interrupted: _interrupted, ...entry } = chunk;
      fullness.irregular.push(entry);
    }
  }

  function trackChunking(envelope: Envelope, deltaBytes: number): void {
    if (envelope.type === KIND.tool_result_image) {
      const open = pendingChunks.get(`${envelope.agent}\u0000tool_result`);
      if (open) open.interrupted = true;
      return;
    }
    if (!isChunkedPayloadType(envelope.type)) return;
    const key = `${envelope.agent}\u0000${envelope.type}`;
    const previous = pendingChunks.get(key);
    const id = envelope.extras['id'];
    if (previous) {
      pendingChunks.delete(key);
      // Only a chunk followed by more of the same payload is a non-last chunk. An empty final
      // after it closes a multimodal tool_result; another id means the payload never finished.
      const continues =
        previous.leg === envelope.leg &&
        !previous.interrupted &&
        previous.id === id &&
        !(envelope.final && envelope.delta === '');
      if (continues) judge(previous, firstCharBytes(envelope.delta));
    }
    if (envelope.final) return;
    const { maxDeltaBytes } = chunkingBudget(
      { type: envelope.type, agent: envelope.agent, extras: envelope.extras },
      budget,
    );
    pendingChunks.set(key, {
      leg: envelope.leg,
      envelope: envelope.seq,
      agent: envelope.agent,
      type: envelope.type,
      deltaBytes,
      maxDeltaBytes,
      id,
      interrupted: false,
    });
  }

  function summary(): ChunkFullness {
    return {
      chunks: fullness.chunks,
      full: fullness.full,
      underfull: fullness.underfull,
      overfull: fullness.overfull,
      meanFullness: fullness.chunks === 0 ? 0 : fullness.sum / fullness.chunks,
      minFullness: fullness.chunks === 0 ? 0 : fullness.min,
      irregularChunks: [...fullness.irregular],
    };
  }

  return { track: trackChunking, summary };
}
