/**
 * When queued work runs. The browser uses animation frames; tests drive a manual scheduler,
 * so the model code needs no DOM.
 */
export interface FrameScheduler {
  /** Run `callback` once at the next frame; returns a cancel function. */
  requestFrame(callback: () => void): () => void;
  /** Run `callback` after `ms` (debounce, throttles). */
  after(ms: number, callback: () => void): () => void;
  now(): number;
}

/** A scheduler for tests: frames and timers run only when the test says so. */
export interface ManualScheduler extends FrameScheduler {
  /** Runs the callbacks queued for the next frame (not those they queue themselves). */
  frame(): void;
  /** Advances the clock, running due timers in order. */
  advance(ms: number): void;
  readonly pendingFrames: number;
}

export function createManualScheduler(start = 0): ManualScheduler {
  let clock = start;
  let frames: (() => void)[] = [];
  let timers: { at: number; order: number; callback: () => void }[] = [];
  let order = 0;
  return {
    requestFrame(callback) {
      const entry = (): void => callback();
      frames.push(entry);
      return () => {
        frames = frames.filter((f) => f !== entry);
      };
    },
    after(ms, callback) {
      const timer = { at: clock + ms, order: order++, callback };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    now: () => clock,
    frame() {
      const due = frames;
      frames = [];
      for (const callback of due) callback();
    },
    advance(ms) {
      const until = clock + ms;
      for (;;) {
        const next = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        clock = next.at;
        next.callback();
      }
      clock = until;
    },
    get pendingFrames() {
      return frames.length;
    },
  };
}
