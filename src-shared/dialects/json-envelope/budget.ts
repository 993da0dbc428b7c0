import { utf8ByteLength } from '../../text/utf8';

/** The upstream chunker's budget for one SSE message, in bytes (MAX_SSE_CHUNK_BYTES). */
export const DEFAULT_CHUNK_BUDGET = 2048;

/** Below this many bytes for the delta the upstream gives up and allows the whole budget. */
const DEGENERATE_DELTA_BYTES = 64;

export interface EnvelopeShape {
  type: string;
  agent: string;
  extras: Record<string, unknown>;
}

/**
 * The envelope exactly as the upstream `_build_envelope` serialises it: key order type,
 * agent, final, delta, then extras; compact separators; non-ASCII kept as UTF-8
 * (`ensure_ascii=False`), which JSON.stringify matches.
 */
export function serializeEnvelope(shape: EnvelopeShape, final: boolean, delta: string): string {
  return JSON.stringify({ type: shape.type, agent: shape.agent, final, delta, ...shape.extras });
}

/**
 * What the upstream `_chunk_and_emit` computes before splitting a payload: the overhead of
 * the envelope with an empty delta (measured with final=false) and the bytes left for the
 * delta. The budget applies to the *unescaped* payload bytes, which is why escaped
 * envelopes routinely exceed it on the wire.
 */
export function chunkingBudget(shape: EnvelopeShape, budget = DEFAULT_CHUNK_BUDGET): { overhead: number; maxDeltaBytes: number } {
  const overhead = utf8ByteLength(serializeEnvelope(shape, false, ''));
  const room = budget - overhead;
  return { overhead, maxDeltaBytes: room < DEGENERATE_DELTA_BYTES ? budget : room };
}
