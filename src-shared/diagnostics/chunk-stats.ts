import { DEFAULT_CHUNK_BUDGET, measureText, type TextMeasure } from '../envelope/budget';
import { frameDataBytes } from '../sse/data-bytes';
import type { DialectId } from '../dialects/registry';
import type { ControlKind, Envelope } from '../envelope/types';
import type { Frame } from '../sse/types';
import { createChunkFullness, type ChunkFullness } from './chunk-fullness';
import { createLog2Histogram, type HistogramSummary } from './log2-histogram';

export type { HistogramBucket, HistogramSummary } from './log2-histogram';

/** Size and escaping per (dialect, envelope type). */
export interface TypeOverhead {
  dialect: DialectId;
  type: string;
  envelopes: number;
  /**
   * UTF-8 bytes of the SSE event data that carried these envelopes. An event that holds
   * several envelopes (XML) counts once, for its first envelope.
   */
  wireBytes: number;
  /** UTF-8 bytes of the deltas as decoded (unescaped). */
  payloadBytes: number;
  /** wireBytes − payloadBytes: envelope fields and keys plus escaping. */
  overheadBytes: number;
  /**
   * JSON dialect only: UTF-8 bytes of the deltas once JSON-escaped the way upstream writes
   * them (`ensure_ascii=False`: quotes, backslashes and control characters escaped).
   */
  escapedPayloadBytes?: number;
  /** escapedPayloadBytes / payloadBytes: 1 means escaping added nothing. */
  escapingInflation?: number;
  /** Envelopes whose event data is larger than the budget (0 for a dialect not chunked against it). */
  overBudget: number;
}

export interface LegStatistics {
  leg: number;
  chunks: number;
  bytes: number;
  frames: number;
  /** Frames whose bytes arrived in more than one network chunk. */
  splitFrames: number;
  envelopes: number;
  /** receivedAt of the leg's first network chunk and of its first envelope (any kind). */
  firstChunkAt: number | null;
  firstEnvelopeAt: number | null;
  timeToFirstEnvelope: number | null;
}

/** Everything the statistics hold, as plain data (the renderer charts it, the CLI prints it). */
export interface ChunkStatistics {
  /** The upstream chunker's budget in bytes (MAX_SSE_CHUNK_BYTES). */
  budget: number;
  /**
   * Whether the budget means anything here: some content came from a dialect chunked against
   * it (the upstream agent's formats). A provider's or a frontend stream's frames have no
   * budget, so nothing is drawn or counted against one.
   */
  budgetApplies: boolean;
  /** Network chunk sizes, as received. */
  chunkBytes: HistogramSummary;
  /** Frame sizes on the wire: an SSE event's field names, data and dispatching blank line; a line with its ending. */
  frameBytes: HistogramSummary;
  /** Unescaped UTF-8 bytes of each content envelope's delta. */
  payloadBytes: HistogramSummary;
  /** Frames completed by each network chunk (0 for a chunk that completed none). */
  framesPerChunk: HistogramSummary;
  /** Time between consecutive frames of a leg, in the caller's clock (ms). */
  frameGapMs: HistogramSummary;
  frames: number;
  splitFrames: number;
  byType: TypeOverhead[];
  /** Control envelopes ([DONE], error frames, XML start tags, …) by kind. */
  controlEnvelopes: Record<string, number>;
  fullness: ChunkFullness;
  legs: LegStatistics[];
}

/**
 * An envelope read back from a session store (statistics computed when a view asks, not while
 * decoding): what its row keeps, with the delta's UTF-8 size, which the store knows without
 * reading the text. The whole envelope is read (`envelope()`) only for a chunked dialect,
 * whose escaping and fullness need its text and extras.
 */
export interface StoredEnvelope {
  leg: number;
  receivedAt: number;
  control: ControlKind | undefined;
  dialect: DialectId;
  type: string;
  deltaBytes: number;
  envelope(): Envelope;
}

export interface ChunkStats {
  onChunk(bytes: number, receivedAt: number, leg: number): void;
  onFrame(frame: Frame, leg: number): void;
  onEnvelope(envelope: Envelope, frame: Frame | undefined): void;
  /** The same count as `onEnvelope`'s, for an envelope read back from a store. */
  onStoredEnvelope(stored: StoredEnvelope, frame: Frame | undefined): void;
  snapshot(): ChunkStatistics;
}

interface TypeAccumulator extends Omit<TypeOverhead, 'overheadBytes' | 'escapingInflation'> {
  escaped: number;
  /** The dialect chunks its envelopes against the budget (escaping statistics apply). */
  chunked: boolean;
}

interface LegState extends LegStatistics {
  /** Index of the chunk whose completed frames are being counted, and the count so far. */
  chunkIndex: number;
  framesInChunk: number;
  lastFrameAt: number | null;
}

/**
 * Chunk-size statistics over a whole session: constant memory per leg, per envelope type and
 * per open payload, plus at most UNDERFULL_LIST_CAP listed chunks. Every update is O(size of
 * the item).
 */
export interface ChunkStatsOptions {
  budget?: number;
  /** Whether a dialect's envelopes are chunked against the budget (escaping and fullness apply): its registry entry says. */
  isChunked: (dialect: DialectId) => boolean;
}

export function createChunkStats(options: ChunkStatsOptions): ChunkStats {
  const budget = options.budget ?? DEFAULT_CHUNK_BUDGET;
  const isChunked = options.isChunked;
  const chunkBytes = createLog2Histogram();
  const frameBytes = createLog2Histogram();
  const payloadBytes = createLog2Histogram();
  const framesPerChunk = createLog2Histogram();
  const frameGapMs = createLog2Histogram();
  const legs: LegState[] = [];
  /** Accumulators by dialect, then type (no key string built per envelope), and in first-seen order. */
  const types = new Map<DialectId, Map<string, TypeAccumulator>>();
  const typeOrder: TypeAccumulator[] = [];
  const controlEnvelopes: Record<string, number> = {};
  const fullness = createChunkFullness(budget);
  let frames = 0;
  let splitFrames = 0;
  let budgetApplies = false;
  /** The frame whose data was counted last (an XML event's envelopes count it once). */
  let countedLeg = -1;
  let countedFrame = -1;
  const measure: TextMeasure = { bytes: 0, escapedBytes: 0 };
  /** The accumulator of the last envelope: runs of one type skip the lookup. */
  let lastAcc: TypeAccumulator | undefined;

  /** The leg's state, made (with any legs before it) on its first use. */
  function legState(leg: number): LegState {
    return legs[leg] ?? addLegs(leg);
  }

  function addLegs(leg: number): LegState {
    while (legs.length <= leg) {
      legs.push({
        leg: legs.length,
        chunks: 0,
        bytes: 0,
        frames: 0,
        splitFrames: 0,
        envelopes: 0,
        firstChunkAt: null,
        firstEnvelopeAt: null,
        timeToFirstEnvelope: null,
        chunkIndex: 0,
        framesInChunk: 0,
        lastFrameAt: null,
      });
    }
    return legs[leg] as LegState;
  }

  function typeAccumulator(dialect: DialectId, type: string): TypeAccumulator {
    if (lastAcc !== undefined && lastAcc.type === type && lastAcc.dialect === dialect) return lastAcc;
    lastAcc = lookUpAccumulator(dialect, type);
    return lastAcc;
  }

  function lookUpAccumulator(dialect: DialectId, type: string): TypeAccumulator {
    let ofDialect = types.get(dialect);
    if (!ofDialect) {
      ofDialect = new Map();
      types.set(dialect, ofDialect);
    }
    let acc = ofDialect.get(type);
    if (!acc) {
      acc = {
        dialect,
        type,
        chunked: isChunked(dialect),
        envelopes: 0,
        wireBytes: 0,
        payloadBytes: 0,
        escaped: 0,
        overBudget: 0,
      };
      ofDialect.set(type, acc);
      typeOrder.push(acc);
      if (acc.chunked) budgetApplies = true;
    }
    return acc;
  }

  /** Counts an envelope for its leg; the accumulator of its type, or undefined for a control envelope (counted by kind). */
  function countEnvelope(
    leg: number,
    receivedAt: number,
    control: ControlKind | undefined,
    dialect: DialectId,
    type: string,
  ): TypeAccumulator | undefined {
    const state = legState(leg);
    state.envelopes++;
    if (state.firstEnvelopeAt === null) {
      state.firstEnvelopeAt = receivedAt;
      if (state.firstChunkAt !== null) state.timeToFirstEnvelope = receivedAt - state.firstChunkAt;
    }
    if (control) {
      controlEnvelopes[control] = (controlEnvelopes[control] ?? 0) + 1;
      return undefined;
    }
    return typeAccumulator(dialect, type);
  }

  /** Counts the frame's data for the first of its envelopes; its UTF-8 bytes then, else -1. */
  function countWire(acc: TypeAccumulator, leg: number, frame: Frame | undefined): number {
    if (!frame || (countedLeg === leg && countedFrame === frame.seq)) return -1;
    countedLeg = leg;
    countedFrame = frame.seq;
    const wire = frameDataBytes(frame);
    acc.wireBytes += wire;
    if (wire > budget && acc.chunked) acc.overBudget++;
    return wire;
  }

  /** Counts the delta's size; `envelope` (its text and extras) for a chunked dialect's fullness, after `measure` measured it. */
  function countDelta(acc: TypeAccumulator, envelope: Envelope | undefined, deltaBytes: number): void {
    acc.envelopes++;
    acc.payloadBytes += deltaBytes;
    payloadBytes.add(deltaBytes);
    if (acc.chunked && envelope) {
      acc.escaped += measure.escapedBytes;
      fullness.track(envelope, deltaBytes);
    }
  }

  return {
    onChunk(bytes, receivedAt, leg) {
      const state = legState(leg);
      chunkBytes.add(bytes);
      state.chunks++;
      state.bytes += bytes;
      state.firstChunkAt ??= receivedAt;
    },

    onFrame(frame, leg) {
      const state = legState(leg);
      frames++;
      state.frames++;
      frameBytes.add(frame.byteEnd - frame.byteStart);
      if (frame.chunkFirst !== frame.chunkLast) {
        splitFrames++;
        state.splitFrames++;
      }
      if (state.lastFrameAt !== null) frameGapMs.add(frame.receivedAt - state.lastFrameAt);
      state.lastFrameAt = frame.receivedAt;
      if (frame.chunkLast > state.chunkIndex) {
        framesPerChunk.add(state.framesInChunk);
        framesPerChunk.add(0, frame.chunkLast - state.chunkIndex - 1);
        state.chunkIndex = frame.chunkLast;
        state.framesInChunk = 0;
      }
      state.framesInChunk++;
    },

    onEnvelope(envelope, frame) {
      const acc = countEnvelope(envelope.leg, envelope.receivedAt, envelope.control, envelope.dialect, envelope.type);
      if (!acc) return;
      const wire = countWire(acc, envelope.leg, frame);
      // A delta that is its event's data verbatim (an XML text delta) has the bytes just
      // counted. Escaped sizes only matter for chunked dialects.
      const verbatim =
        wire !== -1 && !acc.chunked && envelope.delta.length === frame?.data.length && envelope.delta === frame.data;
      countDelta(acc, envelope, verbatim ? wire : measureText(envelope.delta, measure, acc.chunked).bytes);
    },

    onStoredEnvelope(stored, frame) {
      const acc = countEnvelope(stored.leg, stored.receivedAt, stored.control, stored.dialect, stored.type);
      if (!acc) return;
      countWire(acc, stored.leg, frame);
      if (!acc.chunked) return countDelta(acc, undefined, stored.deltaBytes);
      const envelope = stored.envelope();
      countDelta(acc, envelope, measureText(envelope.delta, measure, true).bytes);
    },

    snapshot() {
      // Frames completed by the chunk being counted, and by the chunks after the last frame.
      const perChunk = framesPerChunk.clone();
      for (const state of legs) {
        if (state.chunks <= state.chunkIndex) continue;
        perChunk.add(state.framesInChunk);
        perChunk.add(0, state.chunks - state.chunkIndex - 1);
      }
      return {
        budget,
        budgetApplies,
        chunkBytes: chunkBytes.summary(),
        frameBytes: frameBytes.summary(),
        payloadBytes: payloadBytes.summary(),
        framesPerChunk: perChunk.summary(),
        frameGapMs: frameGapMs.summary(),
        frames,
        splitFrames,
        byType: typeOrder.map(({ escaped, chunked, ...acc }) => ({
          ...acc,
          overheadBytes: acc.wireBytes - acc.payloadBytes,
          ...(chunked
            ? {
                escapedPayloadBytes: escaped,
                escapingInflation: acc.payloadBytes === 0 ? 1 : escaped / acc.payloadBytes,
              }
            : {}),
        })),
        controlEnvelopes: { ...controlEnvelopes },
        fullness: fullness.summary(),
        legs: legs.map(({ chunkIndex: _c, framesInChunk: _f, lastFrameAt: _l, ...leg }) => ({ ...leg })),
      };
    },
  };
}
