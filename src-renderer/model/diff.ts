import type { SessionSummary } from '../../src-shared/contract';
import { shortId } from './agents';
import { DIALECT_REGISTRY } from '../../src-shared/dialects/registry';
import { KIND } from '../../src-shared/envelope/vocabulary';
import { INHERENT, type InherentId } from '../../src-shared/diff/inherent';
import { NORMALISATIONS, type NormalisationId } from '../../src-shared/diff/normalisations';
import type { DiffCounts, DiffRow, RowStatus, SessionDiff } from '../../src-shared/diff/types';

/**
 * The diff view's model: which two sessions to compare by default, row filtering, labels,
 * the headline, and the JSON export. The diff itself comes from main (src-shared/diff).
 */

export const STATUS_LABELS: Record<RowStatus, string> = {
  equal: 'equal',
  changed: 'changed',
  'only-left': 'only left',
  'only-right': 'only right',
};

export const STATUS_MARKS: Record<RowStatus, string> = {
  equal: '=',
  changed: '≠',
  'only-left': '◧',
  'only-right': '◨',
};

// ─── Picking the two sessions ───────────────────────────────────────────────────────────

const FORMAT_WORDS = /\b(?:xml|json|raw|agent_base|legacy)\b/gi;

/**
 * What identifies "the same run" across formats: the file name without its format suffixes,
 * or the request URL without its `format` parameter, plus the title with format words removed.
 */
export function scenarioKey(summary: Pick<SessionSummary, 'title' | 'source'>): string {
  const title = summary.title
    .replace(FORMAT_WORDS, '')
    .replace(/[\s·()[\]_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  if (summary.source.kind === 'file') {
    const base = summary.source.path.split(/[\\/]/).pop() ?? summary.source.path;
    return `file:${base.replace(/(\.(?:agent_base|json|xml|raw|captured|sse|ndjson|jsonl|har|txt))+$/i, '').toLowerCase()}`;
  }
  if (summary.source.kind === 'live') {
    try {
      const url = new URL(summary.source.url);
      url.searchParams.delete('format');
      return `live:${url.pathname}?${url.searchParams.toString()}:${title}`;
    } catch {
      return `live:${summary.source.url}:${title}`;
    }
  }
  return `replay:${title}`;
}

/**
 * Sessions that have finished (a diff of a session still streaming would be half a diff) and
 * hold envelopes (a connection that failed before any has nothing to compare).
 */
export function isDiffable(summary: Pick<SessionSummary, 'state' | 'envelopes'>): boolean {
  return (
    summary.envelopes > 0 && (summary.state === 'complete' || summary.state === 'stopped' || summary.state === 'failed')
  );
}

/**
 * How far back a format goes, for the side it is shown on: text written as XML (xml), then
 * agent XML items in another wire (raw), then the rest (DialectModule traits).
 */
function formatAge(format: SessionSummary['format']): number {
  const module = format === null ? undefined : DIALECT_REGISTRY.get(format);
  return module?.textAsXml ? 2 : module?.agentXmlItems ? 1 : 0;
}

/**
 * A default pair: the newest two finished sessions of one scenario in different formats
 * (the older format on the left: xml, then raw), else the newest two finished sessions.
 */
export function suggestPair(sessions: readonly SessionSummary[]): { left: string; right: string } | null {
  const done = sessions.filter(isDiffable);
  for (let i = 0; i < done.length; i++) {
    const a = done[i];
    if (!a) continue;
    for (let j = i + 1; j < done.length; j++) {
      const b = done[j];
      if (!b || a.format === b.format || scenarioKey(a) !== scenarioKey(b)) continue;
      const [left, right] = formatAge(b.format) > formatAge(a.format) ? [b, a] : [a, b];
      return { left: left.id, right: right.id };
    }
  }
  const [newest, next] = done;
  return newest && next ? { left: next.id, right: newest.id } : null;
}

// ─── Rows ───────────────────────────────────────────────────────────────────────────────

export interface RowFilter {
  statuses: ReadonlySet<RowStatus>;
  /** Hide rows whose difference is an inherent property of the formats. */
  hideInherent: boolean;
  text: string;
}

export const ALL_STATUSES: readonly RowStatus[] = ['equal', 'changed', 'only-left', 'only-right'];

export interface IndexedRow {
  index: number;
  row: DiffRow;
}

export function filterRows(rows: readonly DiffRow[], filter: RowFilter): IndexedRow[] {
  const needle = filter.text.trim().toLowerCase();
  const out: IndexedRow[] = [];
  rows.forEach((row, index) => {
    if (!filter.statuses.has(row.status)) return;
    if (filter.hideInherent && row.inherent !== undefined) return;
    if (
      needle !== '' &&
      ![row.kind, row.name ?? '', row.toolId ?? '', row.reason].some((s) => s.toLowerCase().includes(needle))
    )
      return;
    out.push({ index, row });
  });
  return out;
}

/** The row shown first: the first real difference, else the first inherent one, else none. */
export function firstInterestingRow(rows: readonly DiffRow[]): number | null {
  const real = rows.findIndex((r) => r.status !== 'equal' && r.inherent === undefined);
  if (real >= 0) return real;
  const any = rows.findIndex((r) => r.status !== 'equal');
  return any >= 0 ? any : null;
}

export function pairLabel(diff: Pick<SessionDiff, 'agents' | 'flattened'>, pair: number): string {
  if (diff.flattened) return 'all agents';
  const p = diff.agents[pair];
  if (!p) return '—';
  const short = (uuid: string | undefined): string => (uuid === undefined ? '—' : shortId(uuid));
  return p.left === p.right ? short(p.left) : `${short(p.left)} ↔ ${short(p.right)}`;
}

export function normalisationLabels(ids: readonly NormalisationId[]): string[] {
  return ids.map((id) => NORMALISATIONS[id]?.label ?? id);
}

export function inherentLabel(id: InherentId): { label: string; description: string } {
  const info = INHERENT[id];
  return info ? { label: info.label, description: info.description } : { label: id, description: '' };
}

/** "No block differences" / "2 differences · 1 inherent": what a glance at the top should say. */
export function headline(counts: DiffCounts): string {
  if (counts.differences === 0 && counts.inherent === 0) return 'No block differences';
  const parts: string[] = [];
  if (counts.differences > 0) parts.push(`${counts.differences} difference${counts.differences === 1 ? '' : 's'}`);
  else parts.push('No real differences');
  if (counts.inherent > 0) parts.push(`${counts.inherent} inherent to the formats`);
  return parts.join(' · ');
}

/** The language a diff editor should use for a row's text. */
export function rowLanguage(row: Pick<DiffRow, 'kind' | 'left' | 'right'>): 'json' | 'markdown' | 'plaintext' {
  const text = (row.left ?? row.right)?.text.trimStart() ?? '';
  if (row.kind === KIND.text) return 'markdown';
  if (text.startsWith('{') || text.startsWith('[')) return 'json';
  return 'plaintext';
}

// ─── Export ─────────────────────────────────────────────────────────────────────────────

export function exportFileName(left: Pick<SessionSummary, 'title'>, right: Pick<SessionSummary, 'title'>): string {
  const slug = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'session';
  return `diff-${slug(left.title)}--${slug(right.title)}.json`;
}
