import { utf8ByteLength } from '../text/utf8';
import { stringifyJson } from '../json/tree';

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
  return stringifyJson({ type: shape.type, agent: shape.agent, final, delta, ...shape.extras }) ?? '';
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

/** How an envelope that is larger than the budget on the wire came to be so. */
export interface BudgetOverrun {
  /**
   * `after-escaping`: overhead + unescaped delta bytes fit the budget, as the chunking
   * algorithm of docs/protocols/json-envelopes.md promises, and only the JSON escaping of the delta pushed the wire size over.
   * `payload`: the unescaped envelope itself is over: the delta was not chunked (text and
   * thinking never are; an error payload may not be) or the extras leave no room.
   */
  cause: 'after-escaping' | 'payload';
  wireBytes: number;
  budget: number;
  overhead: number;
  maxDeltaBytes: number;
  deltaBytes: number;
  /** Bytes JSON escaping adds to the delta (quotes, backslashes, control characters). */
  escapingBytes: number;
  /** The extras leave under 64 bytes, so upstream allows the whole budget for the delta alone. */
  degenerate: boolean;
}

/**
 * Measure an envelope against the chunking budget. `wireBytes` is the UTF-8 length of the
 * SSE event data as received. Returns undefined when the envelope fits; the overhead is only
 * computed for envelopes that do not.
 */
export function assessEnvelopeBudget(
  shape: EnvelopeShape,
  delta: string,
  wireBytes: number,
  budget = DEFAULT_CHUNK_BUDGET,
): BudgetOverrun | undefined {
  if (wireBytes <= budget) return undefined;
  const { overhead, maxDeltaBytes } = chunkingBudget(shape, budget);
  const deltaBytes = utf8ByteLength(delta);
  return {
    cause: overhead + deltaBytes <= budget ? 'after-escaping' : 'payload',
    wireBytes,
    budget,
    overhead,
    maxDeltaBytes,
    deltaBytes,
    escapingBytes: utf8ByteLength(JSON.stringify(delta)) - 2 - deltaBytes,
    degenerate: budget - overhead < DEGENERATE_DELTA_BYTES,
  };
}
