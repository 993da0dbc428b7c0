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
export function chunkingBudget(
  shape: EnvelopeShape,
  budget = DEFAULT_CHUNK_BUDGET,
): { overhead: number; maxDeltaBytes: number } {
  // The chunks of one payload share their shape, and each is measured by the budget check
  // and by the statistics: serialise a shape once per run of chunks.
  const overhead = knownOverhead(shape) ?? rememberShape(shape, utf8ByteLength(serializeEnvelope(shape, false, '')));
  const room = budget - overhead;
  return { overhead, maxDeltaBytes: room < DEGENERATE_DELTA_BYTES ? budget : room };
}

/** A shape measured, as a copy (a caller may reuse and change its objects), and its overhead. */
interface MeasuredShape {
  type: string;
  keys: string[];
  values: unknown[];
  overhead: number;
  /** Characters of its strings (the agent's and the extras'). */
  chars: number;
}

/**
 * The shape measured last for each agent: agents stream their payloads side by side (a
 * parent's tool call between a sub-agent's tool result chunks), and one shape for all of
 * them was measured again at nearly every chunk. The map outlives the session that filled it,
 * so it is emptied before it holds more than MAX_SHAPES agents or MAX_REMEMBERED_CHARS
 * characters of strings (an extra such as `envelope_log` can be long); the newest shape is
 * always kept.
 */
const shapesByAgent = new Map<string, MeasuredShape>();
const MAX_SHAPES = 64;
const MAX_REMEMBERED_CHARS = 1 << 20;
let rememberedChars = 0;

function knownOverhead(shape: EnvelopeShape): number | undefined {
  const known = shapesByAgent.get(shape.agent);
  if (known === undefined || known.type !== shape.type) return undefined;
  let i = 0;
  for (const key in shape.extras) {
    const value = shape.extras[key];
    // Objects may have changed since: only primitives are compared.
    if (key !== known.keys[i] || value !== known.values[i] || (typeof value === 'object' && value !== null))
      return undefined;
    i++;
  }
  return i === known.keys.length ? known.overhead : undefined;
}

function rememberShape(shape: EnvelopeShape, overhead: number): number {
  const keys = Object.keys(shape.extras);
  const values = keys.map((key) => shape.extras[key]);
  const chars = values.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 0), shape.agent.length);
  const full = shapesByAgent.size >= MAX_SHAPES && !shapesByAgent.has(shape.agent);
  if (full || rememberedChars + chars > MAX_REMEMBERED_CHARS) {
    shapesByAgent.clear();
    rememberedChars = 0;
  }
  const replaced = shapesByAgent.get(shape.agent);
  if (replaced) rememberedChars -= replaced.chars;
  shapesByAgent.set(shape.agent, { type: shape.type, keys, values, overhead, chars });
  rememberedChars += chars;
  return overhead;
}

/**
 * Per UTF-16 unit outside the surrogates: its UTF-8 bytes (1–3) in the low two bits and the
 * bytes JSON.stringify's escaping adds to them above (one for a quote, backslash or control
 * character with a short escape, five for other controls: \u00XX); 0 marks a surrogate, whose
 * size depends on its neighbour. One table lookup per character instead of a chain of
 * comparisons: on text that mixes scripts the comparisons' branches mispredict, and the
 * lookup measures text about a third faster (bench/delta-scans.bench.ts).
 */
const UNIT_SIZES = ((): Uint8Array => {
  const sizes = new Uint8Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const bytes = code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    const shortEscape =
      code === 0x22 ||
      code === 0x5c ||
      code === 0x08 ||
      code === 0x09 ||
      code === 0x0a ||
      code === 0x0c ||
      code === 0x0d;
    const extra = shortEscape ? 1 : code < 0x20 ? 5 : 0;
    sizes[code] = bytes | (extra << 2);
  }
  return sizes;
})();

/** Below this many UTF-16 units the table measures UTF-8 bytes alone faster than the native encoder's call. */
const SHORT_TEXT = 256;

/** What `measureText` found: reused, so that measuring allocates nothing. */
export interface TextMeasure {
  /** UTF-8 bytes of the text (a lone surrogate counts as U+FFFD: 3 bytes). */
  bytes: number;
  /**
   * UTF-8 bytes of the text inside a JSON string as Python's json.dumps(ensure_ascii=False)
   * writes it: JSON.stringify escapes exactly the same characters the same way (quote,
   * backslash, control characters, lone surrogates), minus the two quotes.
   */
  escapedBytes: number;
}

/**
 * Measures `text` into `out` in one pass over its characters. Without `escapes`, long text
 * is measured by the native encoder (faster for bytes alone) and `escapedBytes` is left
 * unset (NaN). With `handOn`, the measure is kept for the next measurement only, which takes
 * it when it is of the same text: the budget check hands an envelope's delta on to its
 * statistics, which measure it next. (Nothing else is remembered: a module-level reference
 * to a delta would keep it alive after its session is gone.)
 */
export function measureText(text: string, out: TextMeasure, escapes = true, handOn = false): TextMeasure {
  if (handedOn.text !== undefined) {
    const same = handedOn.text === text;
    handedOn.text = undefined;
    if (same) {
      out.bytes = handedOn.bytes;
      out.escapedBytes = handedOn.escapedBytes;
      return out;
    }
  }
  if (!escapes && text.length > SHORT_TEXT) {
    out.bytes = utf8ByteLength(text);
    out.escapedBytes = Number.NaN;
  } else measureInto(text, out);
  if (handOn && escapes) {
    handedOn.text = text;
    handedOn.bytes = out.bytes;
    handedOn.escapedBytes = out.escapedBytes;
  }
  return out;
}

/**
 * A measure of `text` its reader already knows, handed on to the next measurement as the
 * budget check hands one on (see measureText): a delta read by shape without escapes has as
 * many UTF-8 bytes as its event's data minus the shape's other text, and no escaping. Without
 * statistics nothing takes it, and the one delta (at most 512 characters, see shapes.ts) stays
 * referenced until the next measurement.
 */
export function handOnMeasure(text: string, bytes: number, escapedBytes: number): void {
  handedOn.text = text;
  handedOn.bytes = bytes;
  handedOn.escapedBytes = escapedBytes;
}

const handedOn: { text: string | undefined; bytes: number; escapedBytes: number } = {
  text: undefined,
  bytes: 0,
  escapedBytes: 0,
};

function measureInto(text: string, out: TextMeasure): void {
  let bytes = 0;
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const size = UNIT_SIZES[text.charCodeAt(i)] as number;
    if (size !== 0) {
      bytes += size & 3;
      extra += size >> 2;
      continue;
    }
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes += 4;
      i++;
    } else {
      // A lone surrogate: U+FFFD (3 bytes) in UTF-8, \uDXXX (6 bytes) once escaped.
      bytes += 3;
      extra += 3;
    }
  }
  out.bytes = bytes;
  out.escapedBytes = bytes + extra;
}

/** UTF-8 bytes of a frame's data, counted by the framer when it could (sse/data-bytes.ts). */
export { frameDataBytes } from '../sse/data-bytes';

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

const measured: TextMeasure = { bytes: 0, escapedBytes: 0 };

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
  // The statistics measure the same delta next: hand it on to them.
  const { bytes: deltaBytes, escapedBytes } = measureText(delta, measured, true, true);
  return {
    cause: overhead + deltaBytes <= budget ? 'after-escaping' : 'payload',
    wireBytes,
    budget,
    overhead,
    maxDeltaBytes,
    deltaBytes,
    escapingBytes: escapedBytes - deltaBytes,
    degenerate: budget - overhead < DEGENERATE_DELTA_BYTES,
  };
}
