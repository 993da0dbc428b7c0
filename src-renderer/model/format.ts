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

type OptionSession = Pick<SessionSummary, 'id' | 'title' | 'format' | 'envelopes' | 'source' | 'createdAt'>;

/** "19:04:31": when a session was opened or started, on the local clock. */
export function clockTime(ms: number): string {
  const at = new Date(ms);
  return `${pad2(at.getHours())}:${pad2(at.getMinutes())}:${pad2(at.getSeconds())}`;
}

/** The folder a file session was opened from ("in ag-ui"); nothing for other sources or an upload. */
function folderOf(session: OptionSession): string {
  if (session.source.kind !== 'file' || session.source.uploaded || session.source.copyOf) return '';
  const parts = session.source.path.split(/[\\/]/);
  return parts.length > 1 ? `in ${parts.at(-2) || '/'}` : '';
}

/**
 * What tells sessions of one label apart, tried in this order: the file's folder, the time it
 * was opened, and last (byPlace) their order in the list ("#2"), which always does.
 */
type Distinguisher = (session: OptionSession, place: number) => string;
const byPlace: Distinguisher = (_session, place) => `#${place + 1}`;
const DISTINGUISHERS: readonly Distinguisher[] = [folderOf, (session) => `opened ${clockTime(session.createdAt)}`];

/**
 * The diff pickers' option text for each session (by id): sessionOptionLabel, and for sessions
 * that would read the same (two files of one name, one run twice) the first distinguisher that
 * tells each of them apart. Titles stay as they are everywhere else.
 */
export function sessionOptionLabels(sessions: readonly OptionSession[]): Map<string, string> {
  const groups = new Map<string, OptionSession[]>();
  for (const session of sessions) {
    const label = sessionOptionLabel(session);
    const group = groups.get(label);
    if (group) group.push(session);
    else groups.set(label, [session]);
  }
  const labels = new Map<string, string>();
  for (const [label, group] of groups) {
    if (group.length === 1) {
      labels.set(group[0]!.id, label);
      continue;
    }
    const tells =
      DISTINGUISHERS.find((hint) => {
        const hints = group.map(hint);
        return !hints.includes('') && new Set(hints).size === group.length;
      }) ?? byPlace;
    group.forEach((session, place) => labels.set(session.id, `${label} · ${tells(session, place)}`));
  }
  return labels;
}
