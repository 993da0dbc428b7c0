import type { ReplayClock } from '../../replay/clock';

/** How long a looping replay shows its finished state before it starts over (replay clock). */
export const LOOP_HOLD_MS = 1000;

/**
 * The replay's loop: while it is on, a replay that played to its end holds the finished state
 * for LOOP_HOLD_MS, then starts over (`startOver`). Pausing, stepping or seeking cancels the hold.
 */
export class LoopHold {
  /** The user's loop switch. */
  on = false;
  /** How many times the replay started over. */
  count = 0;
  private timer: unknown = null;
  private disposed = false;

  constructor(
    private readonly clock: ReplayClock,
    private readonly startOver: () => void,
  ) {}

  /** The replay reached its end while playing: start over after the hold, if the loop is on. */
  ended(): void {
    if (!this.on || this.disposed || this.timer !== null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (!this.on || this.disposed) return;
      this.count += 1;
      this.startOver();
    }, LOOP_HOLD_MS);
  }

  set(on: boolean): void {
    this.on = on;
    if (!on) this.cancel();
  }

  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}
