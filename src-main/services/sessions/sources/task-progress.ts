import type { TaskProgress } from '../../../../src-shared/contract/payloads';
import type { Timers } from '../../connection/connection';
import { createRateWindow } from './rate-window';

/**
 * The progress of long tasks on sessions (opening or uploading a file, exporting it): a tick
 * pushes each running task's bytes and rates so the page can draw a progress bar, whatever host
 * it runs in; a task's last event has `done`. The decode rate is measured on `decoded` bytes.
 */

export interface ProgressProbe {
  task: TaskProgress['task'];
  total: number;
  received: number;
  decoded: number;
  envelopes: number;
  /** Envelopes the task will have taken when done, where it knows (an export). */
  envelopesTotal?: number;
}

export interface ProgressTicker {
  /**
   * Ticks the task's progress until the function it returns is called, which emits the task's
   * last event (done). A session may run two tasks at once (an export while it still loads).
   */
  track(sessionId: string, probe: () => ProgressProbe): () => void;
  dispose(): void;
}

export function createProgressTicker(
  emit: (progress: TaskProgress) => void,
  options: { timers: Timers; now: () => number; intervalMs: number },
): ProgressTicker {
  interface Tracked {
    sessionId: string;
    probe: () => ProgressProbe;
    rates: ReturnType<typeof createRateWindow>;
    startedAt: number;
  }
  const tracked = new Set<Tracked>();
  let timer: unknown = null;

  const progressOf = (entry: Tracked, done: boolean): TaskProgress => {
    const p = entry.probe();
    const t = options.now();
    return {
      sessionId: entry.sessionId,
      ...p,
      ...entry.rates.sample(t, p.decoded, p.envelopes),
      elapsedMs: Math.max(0, t - entry.startedAt),
      done,
    };
  };

  const tick = (): void => {
    timer = null;
    for (const entry of tracked) emit(progressOf(entry, false));
    if (tracked.size > 0) timer = options.timers.setTimeout(tick, options.intervalMs);
  };

  return {
    track(sessionId, probe) {
      // The task starts from nothing: its first tick has a rate already.
      const rates = createRateWindow();
      rates.sample(options.now(), 0, 0);
      const entry: Tracked = { sessionId, probe, rates, startedAt: options.now() };
      tracked.add(entry);
      if (timer === null) timer = options.timers.setTimeout(tick, options.intervalMs);
      return () => {
        if (!tracked.delete(entry)) return;
        emit(progressOf(entry, true));
        if (tracked.size === 0 && timer !== null) {
          options.timers.clearTimeout(timer);
          timer = null;
        }
      };
    },
    dispose() {
      if (timer !== null) options.timers.clearTimeout(timer);
      timer = null;
      tracked.clear();
    },
  };
}
