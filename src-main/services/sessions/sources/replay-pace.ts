import { createSleeper, type ReplayClock } from '../../replay/clock';

/** Events per second at ×1 for a source without receive times. */
export const UNTIMED_PACE = 10;

/** What the paced loop needs of its replay. */
export interface PacedReplay {
  /** Delivers the next event. */
  step(): Promise<void>;
  /** The replay stopped for a reason of its own (its end, a recorded frontend-tools pause). */
  halted(): boolean;
  speed(): number;
  /** The loop started: announce it. */
  onStarted(): void;
  /** The loop ended by itself (not stopped): announce it, loop again at the end. */
  onStopped(): void;
}

/**
 * Playing a source without receive times (blocks of a file), which would otherwise play all at
 * once at any speed: one event at a time, UNTIMED_PACE events per second at ×1 (the speed
 * multiplies the pace).
 */
export class PacedPlay {
  /** Bumped to stop the running loop; null while none runs. */
  private run: number | null = null;
  private runs = 0;
  private disposed = false;
  private readonly pacer;

  constructor(
    clock: ReplayClock,
    private readonly replay: PacedReplay,
  ) {
    this.pacer = createSleeper(clock);
  }

  get running(): boolean {
    return this.run !== null;
  }

  start(): void {
    if (this.run !== null || this.disposed) return;
    const run = (this.run = ++this.runs);
    this.replay.onStarted();
    void this.loop(run);
  }

  /** Stops the loop (true when it was running). */
  stop(): boolean {
    if (this.run === null) return false;
    this.run = null;
    this.pacer.interrupt();
    return true;
  }

  dispose(): void {
    this.disposed = true;
    this.stop();
  }

  private async loop(run: number): Promise<void> {
    while (this.run === run && !this.disposed) {
      await this.replay.step();
      if (this.run !== run) return;
      if (this.replay.halted()) break;
      if (!(await this.pacer.sleep({ left: 1000 / UNTIMED_PACE }, this.replay.speed()))) return;
    }
    if (this.run === run) {
      this.run = null;
      this.replay.onStopped();
    }
  }
}
