import {
  createChunkStats,
  type ChunkStatistics,
  type ChunkStats,
  type StoredEnvelope,
} from '../../../../src-shared/diagnostics/chunk-stats';
import { DIALECT_REGISTRY, type DialectId } from '../../../../src-shared/dialects/registry';
import type { ControlKind, Envelope } from '../../../../src-shared/envelope/types';
import { SESSION_FRAMING } from '../../../../src-shared/pipeline/last-event';
import { createLegFramer, type LegFramer } from '../../../../src-shared/pipeline/leg-framing';
import type { Frame } from '../../../../src-shared/sse/types';
import type { EnvelopeTable } from './envelope-table';
import type { LegState } from './leg-state';

/** The decoder's budgets, which the statistics judge against (SessionDecoderOptions defaults). */
const CHUNK_BUDGET = 2048;
const MAX_DATA_LINE_BYTES = 2048;

/** Longest stretch of counting without yielding: a large file's first count takes about a second. */
const SLICE_MS = 12;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How far the statistics have read one leg. */
interface LegCursor {
  /** Its raw bytes framed again as the decoder framed them: for each event's data. */
  readonly framer: LegFramer;
  /** Network chunks counted and framed, and their bytes. */
  chunks: number;
  bytes: number;
  /**
   * The leg's latest frames, consecutive (an envelope needs its frame's data); the frames more
   * than FRAMES_KEPT behind the newest an envelope asked for are dropped.
   */
  readonly frames: Frame[];
  /** Frames framed so far (the next frame's seq). */
  framed: number;
  /** The response head was given to the framer (its headers may decide the framing, as they did the decoder's). */
  responded: boolean;
  ended: boolean;
}

/**
 * A session's chunk statistics (sizes, timing, escaping and fullness per type), computed when
 * a view asks for them (getStats), not while decoding: decoding a 100 MB recording measured
 * every envelope's UTF-8 and escaped size and every frame's place for a view the user may never
 * open (8 % of the store's instructions; docs/performance.md). Each call goes on from where the
 * last one stopped, so a live session's statistics cost, while the Diagnostics view shows them,
 * what they cost inline before, and nothing while it does not.
 *
 * What is counted is what the decoder saw: the legs' network chunks from their raw bytes, the
 * frames from framing those bytes again with the decoder's framing (same events, same numbers),
 * the envelopes from the envelope table, read back whole only for a chunked dialect (escaping
 * and fullness need their text). The figures equal those of the decoder's own statistics
 * (session-statistics.test.ts). A replay stepping one event at a time delivers a network chunk
 * in parts: when a chunk counted grew since, the count starts over.
 */
export class SessionStatistics {
  private stats: ChunkStats = newChunkStats();
  private cursors: LegCursor[] = [];
  /** The next envelope to count (envelopes are numbered across legs, leg after leg). */
  private envelope = 0;
  private readonly reader: StoredEnvelopeReader;

  constructor(
    private readonly legs: readonly LegState[],
    private readonly envelopes: EnvelopeTable,
  ) {
    this.reader = new StoredEnvelopeReader(envelopes);
  }

  /** Calls in flight, one after the other: each goes on from where the one before stopped. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * The statistics of what the session holds now. The count yields to the event loop every
   * SLICE_MS, so the worker keeps answering (rows, batches) while a large file is counted.
   */
  snapshot(): Promise<ChunkStatistics> {
    const next = this.queue.then(() => this.count());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async count(): Promise<ChunkStatistics> {
    if (this.countedChunkGrew()) this.startOver();
    const slice = { start: performance.now() };
    for (const leg of this.legs) if (!(await this.catchUp(leg, slice))) break;
    return this.stats.snapshot();
  }

  /**
   * The last chunk counted got more bytes since (a replay stepping one event at a time
   * delivers a network chunk in parts): what was counted of it cannot be taken back.
   */
  private countedChunkGrew(): boolean {
    return this.cursors.some((cursor, leg) => {
      const raw = this.legs[leg]?.raw;
      const holder = raw?.overlapping(cursor.bytes, cursor.bytes + 1)[0];
      return holder !== undefined && holder.index < cursor.chunks;
    });
  }

  private startOver(): void {
    this.stats = newChunkStats();
    this.cursors = [];
    this.envelope = 0;
  }

  /** Counts what the leg holds now; false while it streams (the next legs wait for it). */
  private async catchUp(leg: LegState, slice: { start: number }): Promise<boolean> {
    const cursor = (this.cursors[leg.index] ??= this.cursorOf(leg));
    const streaming = leg.decoder !== null;
    const next = this.legs[leg.index + 1];
    const end = next ? next.firstEnvelope : this.envelopes.count;
    // A chunk at a time, its envelopes after it: only the frames of one chunk are held.
    const chunks = leg.raw.count;
    if (!cursor.responded && leg.response) {
      cursor.framer.respond(leg.response.headers);
      cursor.responded = true;
    }
    this.countEnvelopes(cursor, end);
    while (cursor.chunks < chunks) {
      const chunk = leg.raw.chunk(cursor.chunks);
      cursor.chunks++;
      if (!chunk) continue;
      cursor.bytes += chunk.bytes.byteLength;
      this.stats.onChunk(chunk.bytes.byteLength, chunk.receivedAt, leg.index);
      cursor.framer.push(chunk.bytes, chunk.receivedAt);
      this.countEnvelopes(cursor, end);
      if (performance.now() - slice.start > SLICE_MS) {
        await yieldToLoop();
        slice.start = performance.now();
      }
    }
    if (streaming) return false;
    if (!cursor.ended) {
      cursor.framer.end();
      cursor.ended = true;
    }
    this.countEnvelopes(cursor, end);
    cursor.frames.length = 0;
    return true;
  }

  /** The leg's envelopes up to `end` whose frames are framed (all of them once the leg ended: its last event may end without a blank line). */
  private countEnvelopes(cursor: LegCursor, end: number): void {
    for (; this.envelope < end; this.envelope++) {
      const seq = this.envelope;
      const frameSeq = this.envelopes.frame(seq);
      if (!cursor.ended && frameSeq >= cursor.framed) return;
      this.stats.onStoredEnvelope(this.reader.at(seq), frameOf(cursor, frameSeq));
    }
  }

  private cursorOf(leg: LegState): LegCursor {
    const cursor: LegCursor = {
      framer: createLegFramer(
        {
          onFrame: (frame) => {
            cursor.framed = frame.seq + 1;
            // Bounded even for a leg whose envelopes never come back to their frames.
            if (cursor.frames.length > FRAMES_HELD) cursor.frames.splice(0, cursor.frames.length - FRAMES_KEPT);
            cursor.frames.push(frame);
            this.stats.onFrame(frame, leg.index);
          },
          onDiagnostic: () => {},
        },
        { maxDataLineBytes: MAX_DATA_LINE_BYTES, ...SESSION_FRAMING },
      ),
      chunks: 0,
      bytes: 0,
      frames: [],
      framed: 0,
      responded: false,
      ended: false,
    };
    return cursor;
  }
}

/**
 * Envelope `seq` of the table as the statistics read it, one object moved from envelope to
 * envelope (the statistics keep none: fullness keeps the whole envelope `envelope()` makes).
 */
class StoredEnvelopeReader implements StoredEnvelope {
  seq = 0;
  leg = 0;
  receivedAt = 0;
  control: ControlKind | undefined = undefined;
  dialect: DialectId = 'json';
  type = '';
  deltaBytes = 0;

  constructor(private readonly envelopes: EnvelopeTable) {}

  at(seq: number): this {
    const { envelopes } = this;
    this.seq = seq;
    this.leg = envelopes.leg(seq);
    this.receivedAt = envelopes.receivedAt(seq);
    this.control = envelopes.control(seq);
    this.dialect = envelopes.dialect(seq);
    this.type = envelopes.type(seq);
    this.deltaBytes = envelopes.deltaBytes(seq);
    return this;
  }

  envelope(): Envelope {
    return this.envelopes.get(this.seq) as Envelope;
  }
}

function newChunkStats(): ChunkStats {
  return createChunkStats({ budget: CHUNK_BUDGET, isChunked: (id) => DIALECT_REGISTRY.get(id)?.chunked === true });
}

/**
 * How far behind the newest frame an envelope asked for its frames stay: a dialect may go back
 * to an earlier frame of its message (Chat Completions' message summary, made at the leg's
 * end, points at the last chunk before `[DONE]`).
 */
const FRAMES_KEPT = 1024;
/** Frames held at most: more than one network chunk of the smallest events frames (a 64 KB chunk of v4 data stream lines, about 4,600). */
const FRAMES_HELD = 64 * FRAMES_KEPT;

/** Frame `seq` of the leg, or undefined for a frame it never had (or one long dropped). */
function frameOf(cursor: LegCursor, seq: number): Frame | undefined {
  const { frames } = cursor;
  const first = frames[0]?.seq ?? 0;
  const frame = frames[seq - first];
  // Dropped now and then, not at every frame: a splice moves the frames kept.
  if (seq - first > 2 * FRAMES_KEPT) frames.splice(0, seq - first - FRAMES_KEPT);
  return frame?.seq === seq ? frame : undefined;
}
