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
}

export interface ProgressTicker {
  track(sessionId: string, probe: () => ProgressProbe): void;
  /** Emits the task's last event (done) and stops ticking for it. */
  finish(sessionId: string): void;
  dispose(): void;
}

export function createProgressTicker(
  emit: (progress: TaskProgress) => void,
  options: { timers: Timers; now: () => number; intervalMs: number },
): ProgressTicker {
  const tracked = new Map<
    string,
    { probe: () => ProgressProbe; rates: ReturnType<typeof createRateWindow>; startedAt: number }
  >();
  let timer: unknown = null;

  const progressOf = (sessionId: string, done: boolean): TaskProgress | null => {
    const entry = tracked.get(sessionId);
    if (!entry) return null;
    const p = entry.probe();
    const t = options.now();
    return {
      sessionId,
      ...p,
      ...entry.rates.sample(t, p.decoded, p.envelopes),
      elapsedMs: Math.max(0, t - entry.startedAt),
      done,
    };
  };

  const tick = (): void => {
    timer = null;
    for (const id of tracked.keys()) {
      const progress = progressOf(id, false);
      if (progress) emit(progress);
    }
    if (tracked.size > 0) timer = options.timers.setTimeout(tick, options.intervalMs);
  };

  return {
    track(sessionId, probe) {
      // The task starts from nothing: its first tick has a rate already.
      const rates = createRateWindow();
      rates.sample(options.now(), 0, 0);
      tracked.set(sessionId, { probe, rates, startedAt: options.now() });
      if (timer === null) timer = options.timers.setTimeout(tick, options.intervalMs);
    },
    finish(sessionId) {
      const progress = progressOf(sessionId, true);
      if (progress) emit(progress);
      tracked.delete(sessionId);
      if (tracked.size === 0 && timer !== null) {
        options.timers.clearTimeout(timer);
        timer = null;
      }
    },
    dispose() {
      if (timer !== null) options.timers.clearTimeout(timer);
      timer = null;
      tracked.clear();
    },
  };
}
