/**
 * The clock replay runs on, injected so tests control time instead of sleeping. The
 * system clock is the real one; tests use `createManualClock` (./manual-clock.ts).
 */
export interface ReplayClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: ReplayClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A playback speed: a factor of the original timing (×0.25 … ×20), or as fast as possible. */
export type ReplaySpeed = number | 'fast';

export const MIN_SPEED = 0.25;
export const MAX_SPEED = 20;

/** Checks a speed given by a user; returns an error message or null. */
export function speedError(speed: ReplaySpeed): string | null {
  if (speed === 'fast') return null;
  if (!Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED)
    return `speed must be between ×${MIN_SPEED} and ×${MAX_SPEED}, or fast (got ${String(speed)})`;
  return null;
}

/**
 * A waiting period measured in recorded time, that can be interrupted (pause, speed change)
 * and resumed with the right remainder at another speed.
 */
export interface Gap {
  /** Recorded milliseconds still to wait. */
  left: number;
}

export interface Sleeper {
  /** Waits out `gap` at `speed`; resolves true when done, false when interrupted (the gap then holds the remainder). */
  sleep(gap: Gap, speed: number): Promise<boolean>;
  interrupt(): void;
}

/**
 * The longest wait one timer takes: Node (like browsers) fires a timer of 2³¹ ms or more at
 * once, so a longer gap (a recording left open for weeks) is waited out in turns.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export function createSleeper(clock: ReplayClock): Sleeper {
  let current: { gap: Gap; speed: number; started: number; handle: unknown; resolve: (done: boolean) => void } | null =
    null;
  return {
    sleep(gap, speed) {
      if (gap.left <= 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const wait = (): void => {
          const ms = gap.left / speed;
          const turn = Math.min(ms, MAX_TIMER_MS);
          const handle = clock.setTimeout(() => {
            if (turn < ms) {
              gap.left = Math.max(0, gap.left - turn * speed);
              wait();
              return;
            }
            current = null;
            gap.left = 0;
            resolve(true);
          }, turn);
          current = { gap, speed, started: clock.now(), handle, resolve };
        };
        wait();
      });
    },
    interrupt() {
      if (!current) return;
      const { gap, speed, started, handle, resolve } = current;
      current = null;
      clock.clearTimeout(handle);
      gap.left = Math.max(0, gap.left - (clock.now() - started) * speed);
      resolve(false);
    },
  };
}
