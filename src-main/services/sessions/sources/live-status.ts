import type { LiveStatus, SessionState } from '../../../../src-shared/contract/payloads';
import type { Timers } from '../../connection/connection';
import { createRateWindow } from './rate-window';

/**
 * The status line of a live session: HTTP status, bytes, envelopes, elapsed time, the current
 * rate and how long the stream has been silent. Sent on a fixed tick while anything is live,
 * so the idle time keeps counting when no byte arrives (a quiet agent running a long tool).
 */
export interface StatusProbe {
  state: SessionState;
  leg: number;
  httpStatus?: number;
  bytes: number;
  envelopes: number;
  startedAt: number;
  lastActivityAt: number;
}

export interface StatusTicker {
  track(sessionId: string, probe: () => StatusProbe): void;
  /** Emits once more (the final state) and stops ticking for the session. */
  untrack(sessionId: string): void;
  emitNow(sessionId: string): void;
  dispose(): void;
}

export function createStatusTicker(
  emit: (status: LiveStatus) => void,
  options: { timers: Timers; now: () => number; intervalMs: number },
): StatusTicker {
  const tracked = new Map<string, { probe: () => StatusProbe; rates: ReturnType<typeof createRateWindow> }>();
  let timer: unknown = null;

  const statusOf = (sessionId: string): LiveStatus | null => {
    const entry = tracked.get(sessionId);
    if (!entry) return null;
    const p = entry.probe();
    const t = options.now();
    const rates = entry.rates.sample(t, p.bytes, p.envelopes);
    const status: LiveStatus = {
      sessionId,
      state: p.state,
      leg: p.leg,
      bytes: p.bytes,
      envelopes: p.envelopes,
      elapsedMs: Math.max(0, t - p.startedAt),
      ...rates,
      idleMs: Math.max(0, t - p.lastActivityAt),
    };
    if (p.httpStatus !== undefined) status.httpStatus = p.httpStatus;
    return status;
  };

  const tick = (): void => {
    timer = null;
    for (const id of tracked.keys()) {
      const status = statusOf(id);
      if (status) emit(status);
    }
    if (tracked.size > 0) timer = options.timers.setTimeout(tick, options.intervalMs);
  };

  return {
    track(sessionId, probe) {
      tracked.set(sessionId, { probe, rates: createRateWindow() });
      if (timer === null) timer = options.timers.setTimeout(tick, options.intervalMs);
    },
    untrack(sessionId) {
      const status = statusOf(sessionId);
      if (status) emit(status);
      tracked.delete(sessionId);
      if (tracked.size === 0 && timer !== null) {
        options.timers.clearTimeout(timer);
        timer = null;
      }
    },
    emitNow(sessionId) {
      const status = statusOf(sessionId);
      if (status) emit(status);
    },
    dispose() {
      if (timer !== null) options.timers.clearTimeout(timer);
      timer = null;
      tracked.clear();
    },
  };
}
