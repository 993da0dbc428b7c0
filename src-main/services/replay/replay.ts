import type { RecordedAction } from '../../../src-shared/recording/types';
import type { ImportedLeg } from '../importers/types';
import { createSleeper, speedError, systemClock, type Gap, type ReplayClock, type ReplaySpeed } from './clock';
import { eventTime, gapBetween, timeline, type TimelineEvent, type TimelineSource } from './timeline';

/**
 * Plays a source back into a consumer (the session decoder) with its original timing: the
 * gap between two recorded events is waited out divided by the speed (×0.25 … ×20), or not
 * at all when the speed is `fast`. Files without timing (captures, envelope files) play at
 * once at any speed.
 *
 * The position is the number of chunks delivered so far. A single step delivers the next
 * chunk (with any leg start, leg end or action before it). `stepUntil` delivers one event at
 * a time (a leg start or end, an action, a chunk) until a predicate holds, and can deliver a
 * chunk in parts: its `cut` says how many of the chunk's remaining bytes go next, so a step
 * of one SSE frame can stop inside a network chunk that holds many (only the consumer's
 * decoder knows where frames end; ./replay-cuts.ts finds where they may). The rest of a cut
 * chunk follows at once, with no gap, whether stepped or played. Seeking to a chunk index
 * delivers everything up to it at once; seeking backwards calls `onReset` (the consumer
 * discards its state) and plays again from the start. Seeking to an envelope is `seekUntil`
 * with a predicate on the envelope count. The clock is injected, so tests run without sleeping.
 */

export interface ReplayChunk {
  leg: ImportedLeg;
  /** Position in the whole replay (0-based); once its last part is delivered, `state.position` is this + 1. */
  index: number;
  /** Position within its leg. */
  legChunk: number;
  /** The bytes delivered now: the whole chunk, or the next part of a chunk delivered in parts. */
  bytes: Uint8Array;
  /** Where `bytes` start in the chunk (0 for a whole chunk and for a first part). */
  offset: number;
  /** Whether this delivery completes the chunk. */
  last: boolean;
  /** The recorded receive time (give this to the decoder: statistics stay true to the recording). */
  receivedAt: number;
  /** The replay clock when it was delivered. */
  replayedAt: number;
}

export interface ReplayHandlers {
  onChunk(chunk: ReplayChunk): void;
  onLegStart?(leg: ImportedLeg): void;
  onLegEnd?(leg: ImportedLeg): void;
  onAction?(action: RecordedAction): void;
  /** A backward seek restarts from the beginning: drop every chunk received so far. */
  onReset?(): void;
  onStateChange?(state: ReplayState): void;
}

export interface ReplayOptions {
  speed?: ReplaySpeed;
  clock?: ReplayClock;
  /** Longest wait between two events in recorded ms (e.g. to skip a user's long think time). */
  maxGapMs?: number;
  /**
   * How playing delivers chunks, asked before each delivery: whole (no cut, the default) or in
   * parts, e.g. one event at a time so a consumer can pause between two events of one chunk.
   */
  playCut?: () => ChunkCut | undefined;
}

export type ReplayStatus = 'paused' | 'playing' | 'ended';

export interface ReplayState {
  status: ReplayStatus;
  /** Chunks delivered. */
  position: number;
  speed: ReplaySpeed;
  /** Set when reading the source failed; the replay ended there. */
  error?: string;
}

/** One event as delivered, for `stepUntil`'s predicate. */
export type ReplayDelivery =
  | { kind: 'chunk'; chunk: ReplayChunk }
  | { kind: 'leg-start' | 'leg-end'; leg: ImportedLeg }
  | { kind: 'action'; action: RecordedAction };

/**
 * How many bytes of a chunk to deliver next: `rest` is the chunk from the first byte not yet
 * delivered; `legOffset` is where `rest` starts in its leg's byte stream. Answers outside
 * 1 … rest.length are clamped into it.
 */
export type ChunkCut = (rest: Uint8Array, at: { leg: ImportedLeg; legChunk: number; legOffset: number }) => number;

export interface StepOptions {
  /** Delivers chunks in parts (default: whole). */
  cut?: ChunkCut;
}

export interface Replay {
  /** Plays from the current position (a replay starts paused). Does nothing once ended: seek first. */
  play(): void;
  pause(): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Delivers the next chunk at once; false when there was none (the replay ended). */
  step(): Promise<boolean>;
  /** Delivers events one at a time until `done` holds after one, or the end; returns how many chunks or chunk parts it delivered. */
  stepUntil(done: (delivered: ReplayDelivery) => boolean, options?: StepOptions): Promise<number>;
  /** Makes `position` chunks delivered (forwards: the ones in between at once; backwards: reset and replay). */
  seek(position: number): Promise<void>;
  /** From the start, delivers events until `done` holds (e.g. the decoder has produced envelope n). */
  seekUntil(done: (delivered: ReplayDelivery) => boolean, options?: StepOptions): Promise<number>;
  readonly state: ReplayState;
  /** Stops playing and releases the file. */
  dispose(): Promise<void>;
}

interface Cursor {
  events: AsyncGenerator<TimelineEvent>;
  /** The next event, read ahead so its gap can be waited out before it is delivered. */
  next: TimelineEvent | null | undefined;
  gap: Gap;
  lastTime: number | undefined;
  /** Bytes of `next` (a chunk) already delivered in parts. */
  chunkOffset: number;
  /** Bytes of the current leg delivered. */
  legOffset: number;
}

export function createReplay(source: TimelineSource, handlers: ReplayHandlers, options: ReplayOptions = {}): Replay {
  const clock = options.clock ?? systemClock;
  const maxGapMs = options.maxGapMs ?? Infinity;
  const sleeper = createSleeper(clock);
  let speed: ReplaySpeed = options.speed ?? 1;
  checkSpeed(speed);
  let status: ReplayStatus = 'paused';
  let position = 0;
  let error: string | undefined;
  let cursor = openCursor();
  /** Bumped to stop the running play loop. */
  let generation = 0;
  let playing: Promise<void> = Promise.resolve();
  /** Steps and seeks run one at a time. */
  let operations: Promise<unknown> = Promise.resolve();

  function openCursor(): Cursor {
    return {
      events: timeline(source),
      next: undefined,
      gap: { left: 0 },
      lastTime: undefined,
      chunkOffset: 0,
      legOffset: 0,
    };
  }

  const state = (): ReplayState => ({ status, position, speed, ...(error !== undefined ? { error } : {}) });
  const changed = (): void => handlers.onStateChange?.(state());

  /** The next event, reading it if needed; null at the end. */
  async function peek(): Promise<TimelineEvent | null> {
    if (cursor.next !== undefined) return cursor.next;
    const read = cursor;
    let result: IteratorResult<TimelineEvent>;
    try {
      result = await read.events.next();
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      result = { done: true, value: undefined };
    }
    // A rewind while reading replaced the cursor: read from the new one.
    if (cursor !== read) return peek();
    const next = result.done ? null : result.value;
    read.next = next;
    read.gap = { left: next ? gapBetween(read.lastTime, eventTime(next), maxGapMs) : 0 };
    return next;
  }

  function deliver(event: TimelineEvent, cut?: ChunkCut): ReplayDelivery {
    if (event.kind !== 'chunk') {
      cursor.next = undefined;
      cursor.lastTime = eventTime(event) ?? cursor.lastTime;
    }
    switch (event.kind) {
      case 'leg-start':
        cursor.legOffset = 0;
        handlers.onLegStart?.(event.leg);
        return { kind: 'leg-start', leg: event.leg };
      case 'leg-end':
        handlers.onLegEnd?.(event.leg);
        return { kind: 'leg-end', leg: event.leg };
      case 'action':
        handlers.onAction?.(event.action);
        return { kind: 'action', action: event.action };
      case 'chunk':
        return { kind: 'chunk', chunk: deliverChunk(event, cut) };
    }
  }

  /** Delivers the chunk's next part (all of its rest without a cut). */
  function deliverChunk(event: Extract<TimelineEvent, { kind: 'chunk' }>, cut: ChunkCut | undefined): ReplayChunk {
    const offset = cursor.chunkOffset;
    const rest = offset === 0 ? event.bytes : event.bytes.subarray(offset);
    const wanted = cut
      ? cut(rest, { leg: event.leg, legChunk: event.legChunk, legOffset: cursor.legOffset })
      : rest.length;
    const length = Math.min(rest.length, Math.max(1, Math.floor(wanted)));
    const last = length === rest.length;
    const bytes = last ? rest : rest.subarray(0, length);
    cursor.lastTime = event.t;
    cursor.legOffset += length;
    if (last) {
      cursor.next = undefined;
      cursor.chunkOffset = 0;
    } else {
      // The rest of the chunk was received with this part: no gap before it.
      cursor.chunkOffset += length;
      cursor.gap = { left: 0 };
    }
    const chunk: ReplayChunk = {
      leg: event.leg,
      index: position,
      legChunk: event.legChunk,
      bytes,
      offset,
      last,
      receivedAt: event.t,
      replayedAt: clock.now(),
    };
    if (last) position++;
    handlers.onChunk(chunk);
    return chunk;
  }

  function finish(): void {
    status = 'ended';
    changed();
  }

  /** Delivers the next event (or chunk part) with no waiting; null at the end. */
  async function deliverNext(cut?: ChunkCut): Promise<ReplayDelivery | null> {
    const event = await peek();
    if (!event) {
      finish();
      return null;
    }
    return deliver(event, cut);
  }

  async function loop(run: number): Promise<void> {
    while (run === generation) {
      const event = await peek();
      if (run !== generation) return;
      if (!event) {
        finish();
        return;
      }
      if (speed !== 'fast' && !(await sleeper.sleep(cursor.gap, speed))) return;
      if (run !== generation) return;
      deliver(event, options.playCut?.());
    }
  }

  function stopLoop(): Promise<void> {
    generation++;
    sleeper.interrupt();
    return playing;
  }

  function startLoop(): void {
    const run = ++generation;
    playing = loop(run);
  }

  /** Runs `operation` after earlier ones, with the play loop stopped; playing resumes after if it was on. */
  function exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = operations.then(async () => {
      const wasPlaying = status === 'playing';
      await stopLoop();
      try {
        return await operation();
      } finally {
        // Unless the operation paused it (a consumer pausing at a recorded prompt) or it ended.
        if (wasPlaying && status === 'playing') startLoop();
      }
    });
    operations = result.catch(() => undefined);
    return result;
  }

  async function rewind(): Promise<void> {
    await cursor.events.return(undefined);
    cursor = openCursor();
    position = 0;
    error = undefined;
    if (status === 'ended') status = 'paused';
    handlers.onReset?.();
  }

  async function stepUntil(done: (delivered: ReplayDelivery) => boolean, options: StepOptions = {}): Promise<number> {
    let chunks = 0;
    for (;;) {
      const delivered = await deliverNext(options.cut);
      if (!delivered) break;
      if (delivered.kind === 'chunk') chunks++;
      if (done(delivered)) break;
    }
    changed();
    return chunks;
  }

  return {
    get state() {
      return state();
    },
    play() {
      if (status !== 'paused') return;
      status = 'playing';
      changed();
      startLoop();
    },
    pause() {
      if (status !== 'playing') return;
      status = 'paused';
      void stopLoop();
      changed();
    },
    setSpeed(next) {
      checkSpeed(next);
      speed = next;
      if (status === 'playing') {
        // Restart the wait for the next event: the interrupted sleep kept the recorded remainder.
        void stopLoop().then(() => {
          if (status === 'playing') startLoop();
        });
      }
      changed();
    },
    step: () => exclusive(() => stepUntil((d) => d.kind === 'chunk' && d.chunk.last).then((n) => n > 0)),
    stepUntil: (done, stepOptions) => exclusive(() => stepUntil(done, stepOptions)),
    seek: (target) =>
      exclusive(async () => {
        if (!Number.isInteger(target) || target < 0)
          throw new RangeError(`Cannot seek to ${target}: positions are chunk counts (0 or more).`);
        // Part of chunk `position` already delivered is past the target too.
        if (target < position || (target === position && cursor.chunkOffset > 0)) await rewind();
        if (target > position) await stepUntil(() => position >= target);
        else changed();
      }),
    seekUntil: (done, stepOptions) =>
      exclusive(async () => {
        await rewind();
        return stepUntil(done, stepOptions);
      }),
    async dispose() {
      status = 'ended';
      await stopLoop();
      await cursor.events.return(undefined);
    },
  };
}

function checkSpeed(speed: ReplaySpeed): void {
  const message = speedError(speed);
  if (message) throw new RangeError(message);
}
