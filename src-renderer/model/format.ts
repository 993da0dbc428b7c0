import type { SessionSummary } from '../../src-shared/contract';

/**
 * How numbers, times and bytes read in the UI. Pure functions, so the table, the status line
 * and the tests agree on every string.
 */

/** "512 B", "1.5 kB", "12 kB", "3.4 MB" (decimal units, as network tools show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Time since the session started: "0.000", "12.345", "1:02.345", "1:02:03.456" (seconds precision ms). */
export function formatOffset(ms: number): string {
  const negative = ms < 0;
  const total = Math.abs(Math.round(ms));
  const millis = total % 1000;
  const seconds = Math.floor(total / 1000) % 60;
  const minutes = Math.floor(total / 60_000) % 60;
  const hours = Math.floor(total / 3_600_000);
  const frac = String(millis).padStart(3, '0');
  let text: string;
  if (hours > 0) text = `${hours}:${pad2(minutes)}:${pad2(seconds)}.${frac}`;
  else if (minutes > 0) text = `${minutes}:${pad2(seconds)}.${frac}`;
  else text = `${seconds}.${frac}`;
  return negative ? `-${text}` : text;
}

/** Gap to the previous row: "+0", "+0.4 ms", "+12 ms", "+1.25 s", "+2 m 05 s". */
export function formatGap(ms: number): string {
  if (ms <= 0) return '+0';
  if (ms < 1) return `+${ms.toFixed(1)} ms`;
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  return `+${formatDuration(ms)}`;
}

/** A duration for people: "850 ms", "3.2 s", "42 s", "2 m 05 s", "1 h 02 m". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(2).replace(/0$/, '')} s`;
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  const totalSeconds = Math.floor(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} m ${pad2(totalSeconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad2(minutes % 60)} m`;
}

/**
 * A number of a summary for display, by what its field's name says it is: `…_ms` a duration
 * ("61 ms"), `…_per_second` a rate ("42.5/s"), any other fraction to three significant
 * digits. The exact value stays in the JSON view.
 */
export function formatFact(key: string, value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (key.endsWith('_ms')) return formatDuration(value);
  if (key.endsWith('_per_second')) return `${value < 100 ? value.toFixed(1) : Math.round(value)}/s`;
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}

/** "0/s", "850/s", "12.3k/s", "1.2M/s". */
export function formatRate(perSecond: number, unit = ''): string {
  return `${formatCompact(perSecond)}${unit}/s`;
}

/** A count in a few characters, for a narrow axis: "850", "12.3k", "180k", "1.2M". */
export function formatCompact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Thousands separators without depending on the machine's locale: "1,234,567". */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count for a narrow list: exact up to five digits ("54,321"), then compact ("180k", "2.0M"). */
export function formatCountShort(n: number): string {
  return n < 100_000 ? formatCount(n) : formatCompact(n);
}

/** "1 envelope", "2 envelopes", "1,234 envelopes": a count with its noun in the right number. */
export function formatCountOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${Math.trunc(n) === 1 ? singular : plural}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** "Title · format · N env", without the format when the title already ends with it (demo runs). */
export function sessionOptionLabel(session: Pick<SessionSummary, 'title' | 'format' | 'envelopes'>): string {
  const format = session.format ?? '?';
  const parts = session.title.endsWith(` · ${format}`) ? [session.title] : [session.title, format];
  return [...parts, `${session.envelopes} env`].join(' · ');
}
