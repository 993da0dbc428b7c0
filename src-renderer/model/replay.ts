import type { ReplayAction, ReplayState, SessionSummary } from '../../src-shared/contract';
import { describeBreakpoint } from '../../src-shared/replay/breakpoints';

/**
 * The replay controls' model: the speed ladder (×0.25 … ×20, then "fast" = recorded timing
 * ignored), what a session offers (start a replay, or control the one it is), and the seek
 * arithmetic between a slider position (envelopes delivered) and the contract's `seek`.
 */

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 10, 20] as const;
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 20;

/** A point on the ladder: a multiple of the recorded timing, or as fast as possible. */
export type SpeedChoice = { speed: number; instant: false } | { speed: number; instant: true };

export const FAST: SpeedChoice = { speed: MAX_SPEED, instant: true };

export function speedChoices(): SpeedChoice[] {
  return [...SPEEDS.map((speed): SpeedChoice => ({ speed, instant: false })), FAST];
}

/**
 * "×4", "fast", or for a source without receive times (played at a pace) the events per
 * second the speed gives: "40 ev/s".
 */
export function speedLabel(choice: Pick<ReplayState, 'speed' | 'instant' | 'pace'>): string {
  if (choice.instant) return 'fast';
  if (choice.pace !== undefined) return `${Number((choice.speed * choice.pace).toPrecision(3))} ev/s`;
  return `×${choice.speed}`;
}

/** Index of the current speed on the ladder (the nearest rung for a speed set elsewhere). */
export function speedIndex(state: Pick<ReplayState, 'speed' | 'instant'>): number {
  const choices = speedChoices();
  if (state.instant) return choices.length - 1;
  let best = 0;
  for (let i = 0; i < SPEEDS.length; i++)
    if (Math.abs(Math.log((SPEEDS[i] ?? 1) / state.speed)) < Math.abs(Math.log((SPEEDS[best] ?? 1) / state.speed)))
      best = i;
  return best;
}

/** The speed one rung up or down (clamped at the ends). */
export function stepSpeed(state: Pick<ReplayState, 'speed' | 'instant'>, direction: 1 | -1): SpeedChoice {
  const choices = speedChoices();
  const next = Math.min(choices.length - 1, Math.max(0, speedIndex(state) + direction));
  return choices[next] ?? FAST;
}

export function speedAction(choice: SpeedChoice): ReplayAction {
  return choice.instant
    ? { kind: 'speed', speed: choice.speed, instant: true }
    : { kind: 'speed', speed: choice.speed };
}

/** "123 / 456 envelopes". */
export function progressLabel(state: Pick<ReplayState, 'position' | 'total'>): string {
  return `${state.position} / ${state.total}`;
}

export function progressFraction(state: Pick<ReplayState, 'position' | 'total'>): number {
  return state.total === 0 ? 0 : Math.min(1, state.position / state.total);
}

/**
 * The seek action that leaves `delivered` envelopes delivered. `seek` names the last envelope
 * to deliver, so delivering n means seeking to envelope n − 1; 0 cannot be reached by seeking
 * (it is a restart) and yields null.
 */
export function seekAction(delivered: number, total: number): ReplayAction | null {
  const clamped = Math.min(total, Math.max(0, Math.round(delivered)));
  if (clamped === 0) return null;
  return { kind: 'seek', envelope: clamped - 1 };
}

export type ReplayOffer =
  /** The session is a replay: show the transport controls. */
  | { kind: 'controls'; sourceId: string }
  /** The session can be replayed: show a start button. */
  | { kind: 'start' }
  /** Nothing to replay yet (still streaming or connecting, or empty). */
  | { kind: 'none'; reason: string };

export function replayOffer(summary: Pick<SessionSummary, 'source' | 'state' | 'envelopes' | 'bytes'>): ReplayOffer {
  if (summary.source.kind === 'replay') return { kind: 'controls', sourceId: summary.source.of };
  if (summary.state === 'connecting' || summary.state === 'streaming' || summary.state === 'loading')
    return { kind: 'none', reason: 'Replay is available once the session has finished.' };
  if (summary.bytes === 0) return { kind: 'none', reason: 'Nothing was received, so there is nothing to replay.' };
  return { kind: 'start' };
}

/**
 * Keyboard shortcuts of the transport (when focus is not in a text field); the help overlay
 * lists them under "Replay". A step delivers the next event (a recording: the next network
 * chunk, never more than one event).
 */
export const REPLAY_KEYS = [
  { key: 'k', action: 'toggle', description: 'Play / pause' },
  { key: '.', action: 'step', description: 'Step: deliver the next event' },
  { key: '<', action: 'slower', description: 'Slower' },
  { key: '>', action: 'faster', description: 'Faster' },
] as const;

export type ReplayKeyAction = (typeof REPLAY_KEYS)[number]['action'];

export function replayKeyAction(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}): ReplayKeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  return REPLAY_KEYS.find((k) => k.key === event.key)?.action ?? null;
}

/** The type a "frontend tools prompt" breakpoint names: offered first, whatever the source holds. */
export const TOOLS_PROMPT_TYPE = 'awaiting_frontend_tools';

/**
 * The types a type breakpoint can name, for the chooser: the frontend-tools prompt first, then
 * the source's types in order of first appearance.
 */
export function breakpointTypes(sourceTypes: readonly string[]): string[] {
  return [TOOLS_PROMPT_TYPE, ...sourceTypes.filter((t) => t !== TOOLS_PROMPT_TYPE)];
}

/** What the replay paused at, in one line: "type tool_call at envelope #12", "error finding json.invalid at #1: …". */
export function hitLabel(hit: NonNullable<ReplayState['hit']>, agentName: (uuid: string) => string): string {
  const what =
    hit.breakpoint.kind === 'error'
      ? `error finding ${hit.rule ?? ''}`.trim()
      : describeBreakpoint(hit.breakpoint, agentName);
  return `${what} at envelope #${hit.envelope}${hit.message ? `: ${hit.message}` : ''}`;
}
