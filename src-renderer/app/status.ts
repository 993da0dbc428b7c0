import type { LiveStatus, SessionSummary } from '../../src-shared/contract';
import { formatBytes, formatCountOf, formatDuration, formatRate } from '../model/format';

/** The status line's fields, as text (pure: the view only lays them out). */
export interface StatusFields {
  readonly http: string | null;
  readonly bytes: string;
  readonly envelopes: string;
  readonly elapsed: string | null;
  readonly rate: string | null;
  readonly idle: string | null;
}

/** Idle time worth pointing out (a quiet agent running a long tool). */
export const IDLE_NOTICE_MS = 2000;

/**
 * `sinceStatusMs`: time since the live status arrived, so elapsed and idle keep counting
 * between status events. `rows`: the envelopes the batches brought, which come on a faster
 * clock than the summary's counts: the line counts as many as the table beside it.
 */
export function statusFields(
  summary: SessionSummary,
  live: LiveStatus | null,
  sinceStatusMs: number,
  rows = 0,
): StatusFields {
  const streaming = live !== null && (live.state === 'streaming' || live.state === 'connecting');
  const httpStatus = live?.httpStatus ?? summary.httpStatus;
  const bytes = Math.max(live?.bytes ?? 0, summary.bytes);
  const envelopes = Math.max(live?.envelopes ?? 0, summary.envelopes, rows);
  const extra = streaming ? sinceStatusMs : 0;
  const idleMs = live ? live.idleMs + extra : 0;
  return {
    http: httpStatus !== undefined ? `HTTP ${httpStatus}` : null,
    bytes: formatBytes(bytes),
    envelopes: formatCountOf(envelopes, 'envelope'),
    elapsed: live ? formatDuration(live.elapsedMs + extra) : null,
    rate: streaming
      ? `${formatRate(live.envelopesPerSecond)} · ${formatBytes(Math.round(live.bytesPerSecond))}/s`
      : null,
    idle: streaming && idleMs >= IDLE_NOTICE_MS ? `idle ${formatDuration(idleMs)}` : null,
  };
}
