import type { ReplayState as ReplayStatePayload } from '../../../../src-shared/contract/payloads';
import type { ReplayClock } from '../../replay/clock';

/** Least time between two position announcements while playing (≤ 10 per second). */
export const REPLAY_STATE_INTERVAL_MS = 100;

/**
 * Announces a replay's state: at once on a change of transport, speed, breakpoints or loop,
 * and, while playing, the position at most every REPLAY_STATE_INTERVAL_MS of the replay clock
 * (the moves in between coalesce). A state equal to the last one announced is not repeated.
 */
export class ReplayAnnouncer {
  private announced: ReplayStatePayload | null = null;
  private announcedAt = Number.NEGATIVE_INFINITY;
  private positionTimer: unknown = null;
  private disposed = false;

  constructor(
    private readonly clock: ReplayClock,
    private readonly state: () => ReplayStatePayload,
    private readonly onState: (state: ReplayStatePayload) => void,
  ) {}

  now(): void {
    if (this.positionTimer !== null) this.clock.clearTimeout(this.positionTimer);
    this.positionTimer = null;
    if (this.disposed) return;
    const state = this.state();
    if (this.announced && sameState(this.announced, state)) return;
    this.announced = state;
    this.announcedAt = this.clock.now();
    this.onState(state);
  }

  /** The position moved to `position`: announce it within the interval, coalescing the moves in between. */
  position(position: number): void {
    if (this.positionTimer !== null || position === this.announced?.position) return;
    const wait = Math.max(0, this.announcedAt + REPLAY_STATE_INTERVAL_MS - this.clock.now());
    this.positionTimer = this.clock.setTimeout(() => {
      this.positionTimer = null;
      this.now();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    if (this.positionTimer !== null) this.clock.clearTimeout(this.positionTimer);
    this.positionTimer = null;
  }
}

function sameState(a: ReplayStatePayload, b: ReplayStatePayload): boolean {
  return (
    a.sessionId === b.sessionId &&
    a.playing === b.playing &&
    a.speed === b.speed &&
    a.instant === b.instant &&
    a.position === b.position &&
    a.total === b.total &&
    a.finished === b.finished &&
    a.breakpoints === b.breakpoints &&
    a.hit?.envelope === b.hit?.envelope &&
    a.hit?.breakpoint === b.hit?.breakpoint &&
    a.loop === b.loop &&
    a.loops === b.loops
  );
}
