import type { Infer } from '../schema';
import { Count, SessionId } from './common';
import * as s from '../schema';

/** Replay: start, control (pause, step, seek, breakpoints) and state. */

export const ReplaySpeed = s.number({ min: 0.25, max: 20 });

export const StartReplayRequest = s.object({
  sessionId: SessionId,
  speed: s.optional(ReplaySpeed),
  /** Ignore the recorded timing and play as fast as possible. */
  instant: s.optional(s.boolean()),
  paused: s.optional(s.boolean()),
});
export type StartReplayRequest = Infer<typeof StartReplayRequest>;

/** Longest envelope type a breakpoint names, and most types a replay offers (a stream may send any). */
export const BREAKPOINT_TYPE_MAX = 200;
export const REPLAY_TYPES_MAX = 500;

/** A condition that pauses a playing replay (src-shared/replay/breakpoints.ts, docs/replay.md). */
export const Breakpoint = s.variant('kind', {
  type: s.object({ type: s.string({ nonEmpty: true, max: BREAKPOINT_TYPE_MAX }) }),
  agent: s.object({ agent: s.string({ max: 200 }) }),
  /** An envelope of this agent that starts a new block. */
  'agent-block': s.object({ agent: s.string({ max: 200 }) }),
  error: s.object({}),
});

export const ReplayAction = s.variant('kind', {
  play: s.object({}),
  pause: s.object({}),
  /**
   * Take N steps and pause. A step is the bytes up to the end of the next SSE event for a
   * source without network timing (a capture, an envelope file), and the next network chunk
   * for a recording or live session, cut so that it never completes more than one event. A
   * step also ends at a recorded frontend-tools pause.
   */
  step: s.object({ count: s.optional(s.number({ integer: true, min: 1, max: 100_000 })) }),
  /** Jump so that every envelope up to and including this one, and none after its frame, has been delivered. */
  seek: s.object({ envelope: Count() }),
  /** Start over from the beginning, paused: the same session, emptied (a new generation), nothing delivered. */
  restart: s.object({}),
  speed: s.object({ speed: ReplaySpeed, instant: s.optional(s.boolean()) }),
  /** Replace the breakpoints; playing pauses at the next envelope one of them hits. */
  breakpoints: s.object({ breakpoints: s.array(Breakpoint, { max: 50 }) }),
  /** Start over at the end (after a short hold on the finished state) until turned off. */
  loop: s.object({ on: s.boolean() }),
});
export type ReplayAction = Infer<typeof ReplayAction>;

export const ReplayControlRequest = s.object({ sessionId: SessionId, action: ReplayAction });
export type ReplayControlRequest = Infer<typeof ReplayControlRequest>;

export const ReplayState = s.object({
  sessionId: SessionId,
  source: SessionId,
  playing: s.boolean(),
  speed: ReplaySpeed,
  instant: s.boolean(),
  /** Envelopes of the source delivered so far, and in total. */
  position: Count(),
  total: Count(),
  finished: s.boolean(),
  /**
   * The source has no receive times (a capture, an envelope file): it plays one event at a
   * time at this many per second at ×1 (the speed multiplies it) instead of all at once.
   */
  pace: s.optional(s.number({ min: 0 })),
  breakpoints: s.array(Breakpoint),
  /** The breakpoint the replay is paused at (cleared when it plays on, steps or seeks). */
  hit: s.optional(
    s.object({
      breakpoint: Breakpoint,
      envelope: Count(),
      rule: s.optional(s.string()),
      message: s.optional(s.string()),
    }),
  ),
  loop: s.boolean(),
  /** Passes that started over because of the loop. */
  loops: Count(),
  /** The source's envelope types in order of first appearance (what a type breakpoint can name); at most REPLAY_TYPES_MAX of at most BREAKPOINT_TYPE_MAX characters. */
  types: s.array(s.string({ max: BREAKPOINT_TYPE_MAX }), { max: REPLAY_TYPES_MAX }),
});
export type ReplayState = Infer<typeof ReplayState>;
