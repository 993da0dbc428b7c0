import type { ReplayClock } from './clock';

/**
 * A clock that only moves when told to, for deterministic replay tests: `advance(ms)` runs
 * every timer that falls due, in time order, letting promise callbacks settle in between.
 */
export interface ManualClock extends ReplayClock {
  advance(ms: number): Promise<void>;
  /** Timers waiting, by due time. */
  pending(): number[];
}

/** Lets pending promise callbacks (async iteration, awaited file reads) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export function createManualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { due: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => [...timers.values()].map((t) => t.due).sort((a, b) => a - b),
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (;;) {
        let next: [number, { due: number; callback: () => void }] | undefined;
        for (const entry of timers) if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].due;
        next[1].callback();
        await settle();
      }
      now = target;
    },
  };
}
