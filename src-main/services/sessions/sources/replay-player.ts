import type { ReplayAction, ReplayState as ReplayStatePayload } from '../../../../src-shared/contract/payloads';
import { systemClock, type ReplayClock } from '../../replay/clock';
import { createReplay, type Replay, type ReplayDelivery } from '../../replay/replay';
import { historyAfter, STREAM_START, type ByteHistory } from '../../replay/replay-cuts';
import type { TimelineSource } from '../../replay/timeline';
import { legIsStream } from '../../importers/types';
import { rejectedLegFailure } from './file-load';
import { ReplayAnnouncer } from './replay-announcer';
import { BreakpointWatch } from './replay-breakpoints';
import { LoopHold } from './replay-loop-hold';
import { PacedPlay, UNTIMED_PACE } from './replay-pace';
import { seekCut, stepCut } from './replay-step-cuts';
import { legEndFromRecording } from '../recorder-port';
import type { LegState } from '../store/leg-state';
import type { SessionStore } from '../store/session-store';

/**
 * A replay session: another session's legs played back into a fresh session with their
 * recorded timing (×0.25 … ×20, or at once), with pause, step and seek. When a leg ends on
 * awaiting_frontend_tools the replay pauses there; answering plays the recorded continuation.
 *
 * What one step delivers depends on what the source's chunks are:
 * - network chunks with receive times (live sessions, recordings): the next network chunk,
 *   but never more than one SSE event. A chunk that would complete two events is cut after
 *   the first; its rest follows on the next step (the chunk table of the replay still shows
 *   the network's chunks). A step may complete no event (a chunk inside a long event).
 * - blocks of a file without timing (SSE captures read 64 KiB at a time, envelope files,
 *   HAR bodies): the bytes up to the end of the next SSE event, across blocks.
 * A step also ends at a recorded frontend-tools pause; stepping on from there plays the
 * recorded continuation, as answering does.
 *
 * Seeking to envelope n delivers whole chunks up to the one where the source's envelope n
 * ends, and that chunk up to the end of its frame: the replay lands exactly on envelope n
 * (on the last envelope of its frame when one XML or raw event carries several).
 *
 * A source without receive times (blocks of a file) would play all at once at any speed: it
 * plays one event at a time instead (replay-pace.ts; "fast" still plays at once).
 *
 * Breakpoints (src-shared/replay/breakpoints.ts) pause a playing replay at the envelope that
 * hits one: while any is set, playing delivers one event at a time (a network chunk holding
 * several is cut after each, its rest following with no gap), and every delivered envelope and
 * finding is shown to the matcher. Stepping and seeking pass breakpoints (a seek is a jump);
 * play (Continue) goes on to the next hit. When one SSE event carries several envelopes (XML),
 * the replay pauses after the whole event.
 *
 * Looping (replay-loop-hold.ts): a replay that plays to its end holds the finished state, then
 * starts over (a new generation of the session, as a backward seek) and plays again, until the
 * loop is turned off or the replay paused, stepped or seeked. Restart starts over the same way,
 * paused, in the same session.
 *
 * The replay state is announced on every change: at start, on play, pause, step, seek and
 * speed changes at once, and while playing as the position moves, at most every
 * REPLAY_STATE_INTERVAL_MS of the replay clock.
 */

export interface ReplaySessionOptions {
  source: TimelineSource;
  sourceId: string;
  /** The session the replay plays into; replaced on a backward seek. */
  data: () => SessionStore;
  /** A backward seek: start over with an empty session. */
  reset: () => void;
  onState: (state: ReplayStatePayload) => void;
  /** Envelopes of the source, for the position display. */
  total: number;
  /** Where the source's envelope `seq` ends: its leg and the end of its frame in the leg's bytes. */
  envelopeEnd: (seq: number) => { leg: number; byteEnd: number } | undefined;
  /** The source's chunks are network chunks (live sessions, recordings), not blocks of a file. */
  networkChunks: boolean;
  speed: number;
  instant: boolean;
  /** Start paused (announcing the state once) instead of playing. */
  paused: boolean;
  /** The source's envelope types, for the breakpoint chooser. */
  types: readonly string[];
  clock?: ReplayClock;
}

export interface ReplaySession {
  control(action: ReplayAction): Promise<ReplayStatePayload>;
  /** Plays on past a tool-results pause (the recorded continuation). */
  continueAfterAnswer(): void;
  state(): ReplayStatePayload;
  dispose(): Promise<void>;
}

export function createReplaySession(options: ReplaySessionOptions): ReplaySession {
  const clock = options.clock ?? systemClock;
  let speed = options.speed;
  let instant = options.instant;
  let legIndex = -1;
  /** The last bytes delivered on the current leg, for finding where the next event ends. */
  let history: ByteHistory = STREAM_START;
  /** Stopped at a recorded awaiting_frontend_tools until answered (or stepped past). */
  let pausedForTools = false;
  /** A seek passes recorded pauses on its way to the envelope asked for. */
  let seeking = false;
  let disposed = false;
  /** The source has no receive times: playing steps event by event at a pace (replay-pace.ts). */
  const paced = !options.networkChunks;
  const pacedPlay = new PacedPlay(clock, {
    step: () => step(1),
    halted: () => pausedForTools || replay.state.status === 'ended',
    speed: () => speed,
    onStarted: () => announceNow(),
    onStopped() {
      announceNow();
      if (replay.state.status === 'ended') loop.ended();
    },
  });

  // ─── Breakpoints and loop ───────────────────────────────────────────────────────────
  const breaks = new BreakpointWatch();
  const loop = new LoopHold(clock, () => void replay.seek(0).then(() => play()));
  /** The replay's own status as last reported (to tell an end reached while playing). */
  let replayStatus = 'paused';

  const payload = (): ReplayStatePayload => ({
    sessionId: options.data().id,
    source: options.sourceId,
    playing: playing(),
    speed,
    instant,
    position: options.data().envelopeCount,
    total: options.total,
    finished: replay.state.status === 'ended',
    ...(paced ? { pace: UNTIMED_PACE } : {}),
    breakpoints: breaks.list,
    ...(breaks.hit ? { hit: { ...breaks.hit } } : {}),
    loop: loop.on,
    loops: loop.count,
    types: [...options.types],
  });

  const announcer = new ReplayAnnouncer(clock, () => payload(), options.onState);
  const announceNow = (): void => announcer.now();
  /** The position moved: announce it within the interval, coalescing the moves in between. */
  const announcePosition = (): void => announcer.position(options.data().envelopeCount);

  // ─── Playing into the session ───────────────────────────────────────────────────────
  const currentLeg = (): LegState | undefined => options.data().legs[legIndex];
  const frameCount = (): number => options.data().legs.reduce((sum, leg) => sum + leg.frames.count, 0);

  /** With breakpoints set, playing delivers one event at a time (see checkBreakpoints); so does a step. */
  const oneEvent = stepCut(options.networkChunks, () => history);

  const replay: Replay = createReplay(
    options.source,
    {
      onLegStart(leg) {
        const data = options.data();
        history = STREAM_START;
        legIndex = data.openLeg(
          leg.index === 0 ? 'file' : 'tool-results',
          leg.request ?? null,
          leg.startedAt ?? 0,
        ).index;
        if (leg.response) data.setResponse(legIndex, leg.response);
      },
      onChunk(chunk) {
        const data = options.data();
        const state = currentLeg();
        if (!state) return;
        if (legIsStream(chunk.leg)) data.push(state.index, chunk.bytes, chunk.receivedAt, chunk.offset > 0);
        else data.keepRejected(state.index, chunk.bytes, chunk.receivedAt);
        history = historyAfter(history, chunk.bytes);
        checkBreakpoints();
        announcePosition();
      },
      onLegEnd(leg) {
        const data = options.data();
        const state = currentLeg();
        if (!state) return;
        const failure = rejectedLegFailure(legIsStream(leg), leg.response, state, leg.request ?? null);
        if (failure) data.endLeg(state.index, { reason: 'failed', message: failure.message }, failure);
        else data.endLeg(state.index, legEndFromRecording(leg.outcome));
        checkBreakpoints();
        // A pause for frontend tools: wait for the user's answer before the continuation.
        if (!seeking && data.pendingTools() !== null && leg.index < options.source.legs.length - 1) {
          pausedForTools = true;
          replay.pause();
          stopPaced();
        }
      },
      onReset() {
        legIndex = -1;
        history = STREAM_START;
        pausedForTools = false;
        options.reset();
        breaks.reset();
      },
      onStateChange(state) {
        const endedPlaying = state.status === 'ended' && replayStatus === 'playing';
        replayStatus = state.status;
        announceNow();
        if (endedPlaying) loop.ended();
      },
    },
    // With breakpoints set, playing delivers one event at a time (see checkBreakpoints).
    { speed: instant ? 'fast' : speed, clock, playCut: () => (breaks.list.length > 0 ? oneEvent : undefined) },
  );

  /**
   * Shows the matcher what was delivered since it last looked; a hit while playing pauses the
   * replay there. Without breakpoints it only moves its marks.
   */
  function checkBreakpoints(): void {
    const first = breaks.look(options.data());
    if (first === null || seeking || !playing()) return;
    breaks.hit = first;
    replay.pause();
    stopPaced();
  }

  async function step(count: number): Promise<void> {
    // Stepping on from a recorded pause plays the recorded continuation.
    pausedForTools = false;
    breaks.hit = undefined;
    let left = count;
    let frames = frameCount();
    const stepEnded = (delivered: ReplayDelivery): boolean =>
      pausedForTools ||
      frameCount() > frames ||
      (options.networkChunks && delivered.kind === 'chunk' && delivered.chunk.last);
    await replay.stepUntil(
      (delivered) => {
        if (!stepEnded(delivered)) return false;
        frames = frameCount();
        left -= 1;
        return left === 0 || pausedForTools;
      },
      { cut: oneEvent },
    );
  }

  async function seek(envelope: number): Promise<void> {
    const wanted = envelope + 1;
    const delivered = options.data().envelopeCount;
    if (delivered === wanted) {
      announceNow();
      return;
    }
    const cut = seekCut(options.envelopeEnd(envelope), () => history);
    const done = (): boolean => options.data().envelopeCount >= wanted;
    breaks.hit = undefined;
    seeking = true;
    try {
      if (delivered > wanted) await replay.seekUntil(done, { cut });
      else await replay.stepUntil(done, { cut });
    } finally {
      seeking = false;
    }
  }

  /** Back to the start, nothing delivered: the session empties (a new generation) and the replay stays paused. */
  async function restart(): Promise<void> {
    breaks.hit = undefined;
    pausedForTools = false;
    await replay.seek(0);
    announceNow();
  }

  // ─── Playing at a pace (sources without receive times) ──────────────────────────────
  function play(): void {
    breaks.hit = undefined;
    if (!paced || instant) {
      replay.play();
      return;
    }
    if (replay.state.status !== 'ended') pacedPlay.start();
  }

  function stopPaced(): boolean {
    return pacedPlay.stop();
  }

  function playing(): boolean {
    return pacedPlay.running || replay.state.status === 'playing';
  }

  function pause(): void {
    replay.pause();
    if (stopPaced()) announceNow();
  }

  /** Steps and seeks while playing at a pace: the loop stops for them and goes on from there. */
  async function betweenPacedSteps(operation: () => Promise<void>): Promise<void> {
    const resume = stopPaced();
    await operation();
    if (resume && !pausedForTools) play();
  }

  queueMicrotask(() => {
    if (disposed) return;
    if (options.paused) announceNow();
    else play();
  });

  return {
    async control(action) {
      switch (action.kind) {
        case 'play':
          play();
          break;
        case 'pause':
          loop.cancel();
          pause();
          break;
        case 'step':
          loop.cancel();
          await betweenPacedSteps(() => step(action.count ?? 1));
          break;
        case 'seek':
          loop.cancel();
          await betweenPacedSteps(() => seek(action.envelope));
          break;
        case 'restart':
          loop.cancel();
          pause();
          await restart();
          break;
        case 'breakpoints':
          breaks.set(action.breakpoints, options.data());
          announceNow();
          break;
        case 'loop':
          loop.set(action.on);
          announceNow();
          break;
        case 'speed': {
          const wasPlaying = playing();
          speed = action.speed;
          instant = action.instant ?? false;
          replay.setSpeed(instant ? 'fast' : speed);
          // A paced source switches between stepping at a pace and playing at once.
          if (paced && wasPlaying) {
            pause();
            play();
          }
          break;
        }
      }
      return payload();
    },
    continueAfterAnswer() {
      if (!pausedForTools) return;
      pausedForTools = false;
      play();
    },
    state: payload,
    async dispose() {
      disposed = true;
      announcer.dispose();
      loop.dispose();
      pacedPlay.dispose();
      await replay.dispose();
    },
  };
}
