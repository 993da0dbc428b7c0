import type { DiagnosticPayload } from '../../src-shared/contract';
import { RULES, type RuleInfo } from '../../src-shared/diagnostics/rules';
import { SEVERITY_RANK, zeroSeverityCounts, type Severity } from '../../src-shared/diagnostics/severity';

/**
 * The diagnostics view's model: findings grouped by rule with the catalogue's title and the
 * rule's section of docs/diagnostics.md, location labels, and how a finding maps to a
 * timeline row and a byte range.
 */

export interface RuleGroup {
  rule: string;
  /** The catalogue's severity (a rule the renderer does not know: the worst severity seen). */
  severity: Severity;
  title: string;
  layer: RuleInfo['layer'] | 'unknown';
  known: boolean;
  count: number;
  findings: DiagnosticPayload[];
}

function catalogueEntry(rule: string): RuleInfo | undefined {
  return Object.hasOwn(RULES, rule) ? (RULES as Record<string, RuleInfo>)[rule] : undefined;
}

/** Groups findings by rule: errors first, then warnings, then info; larger groups first. */
export function groupByRule(diagnostics: readonly DiagnosticPayload[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const d of diagnostics) {
    let group = groups.get(d.rule);
    if (!group) {
      const info = catalogueEntry(d.rule);
      group = {
        rule: d.rule,
        severity: info?.severity ?? d.severity,
        title: info?.title ?? d.rule,
        layer: info?.layer ?? 'unknown',
        known: info !== undefined,
        count: 0,
        findings: [],
      };
      groups.set(d.rule, group);
    }
    if (!group.known && SEVERITY_RANK[d.severity] > SEVERITY_RANK[group.severity]) group.severity = d.severity;
    group.count++;
    group.findings.push(d);
  }
  return [...groups.values()].sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.count - a.count || a.rule.localeCompare(b.rule),
  );
}

export interface SeverityFilter {
  error: boolean;
  warning: boolean;
  info: boolean;
}

export function filterGroups(groups: readonly RuleGroup[], severities: SeverityFilter, text: string): RuleGroup[] {
  const needle = text.trim().toLowerCase();
  const out: RuleGroup[] = [];
  for (const group of groups) {
    if (!severities[group.severity]) continue;
    if (needle === '' || group.rule.toLowerCase().includes(needle) || group.title.toLowerCase().includes(needle)) {
      out.push(group);
      continue;
    }
    const findings = group.findings.filter((d) => d.message.toLowerCase().includes(needle));
    if (findings.length > 0) out.push({ ...group, findings, count: findings.length });
  }
  return out;
}

export function severityCounts(diagnostics: readonly DiagnosticPayload[]): Record<Severity, number> {
  const counts = zeroSeverityCounts();
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

/** "leg 1 · bytes 120–188 · frame 4 · envelope 7 · block 2 · line 9": the parts a finding has. */
export function locationLabel(at: DiagnosticPayload['at']): string {
  const parts: string[] = [];
  if (at.leg !== undefined && at.leg > 0) parts.push(`leg ${at.leg}`);
  if (at.byteStart !== undefined)
    parts.push(
      at.byteEnd !== undefined && at.byteEnd !== at.byteStart
        ? `bytes ${at.byteStart}–${at.byteEnd}`
        : `byte ${at.byteStart}`,
    );
  if (at.frame !== undefined) parts.push(`frame ${at.frame}`);
  if (at.envelope !== undefined) parts.push(`envelope ${at.envelope}`);
  if (at.block !== undefined) parts.push(`block ${at.block}`);
  if (at.line !== undefined) parts.push(`file line ${at.line}`);
  else if (at.fileOffset !== undefined) parts.push(`file offset ${at.fileOffset}`);
  return parts.length > 0 ? parts.join(' · ') : 'whole session';
}

// ─── Jumping to a finding ───────────────────────────────────────────────────────────────

/** What a row probe reports about an envelope: where it sits in the session's streams. */
export interface RowPosition {
  leg: number;
  frame: number;
  byteStart: number;
}

export interface FindingTarget {
  /** The timeline row to select, when one can be found. */
  row: number | null;
  bytes: { leg: number; start: number; end: number } | null;
}

/** Bytes to highlight for a finding: its own range, else none. */
export function bytesOf(at: DiagnosticPayload['at']): FindingTarget['bytes'] {
  if (at.byteStart === undefined) return null;
  const end = at.byteEnd ?? at.byteStart + 1;
  return { leg: at.leg ?? 0, start: at.byteStart, end: Math.max(end, at.byteStart) };
}

/**
 * The timeline row of a finding. An envelope is its own row; a block's first envelope stands
 * for the block; a finding on a frame or on bytes only (an ignored SSE line) lands on the
 * first envelope at or after it in the same leg, else the last one before it. Rows are
 * ordered by (leg, frame, byte), so a binary search over `probe` needs O(log total) calls.
 */
export async function findRow(
  at: DiagnosticPayload['at'],
  total: number,
  blockFirstEnvelope: (block: number) => number | undefined,
  probe: (seq: number) => Promise<RowPosition>,
): Promise<number | null> {
  if (at.envelope !== undefined) return at.envelope < total ? at.envelope : null;
  if (at.block !== undefined) {
    const first = blockFirstEnvelope(at.block);
    if (first !== undefined) return first;
  }
  if (total === 0 || (at.frame === undefined && at.byteStart === undefined)) return null;
  const leg = at.leg ?? 0;
  // Key order of a row against the target: legs, then frames when the finding names one, else bytes.
  const before = (p: RowPosition): boolean => {
    if (p.leg !== leg) return p.leg < leg;
    if (at.frame !== undefined) return p.frame < at.frame;
    return p.byteStart < (at.byteStart ?? 0);
  };
  let lo = 0;
  let hi = total;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(await probe(mid))) lo = mid + 1;
    else hi = mid;
  }
  if (lo < total && (await probe(lo)).leg === leg) return lo;
  if (lo > 0 && (await probe(lo - 1)).leg === leg) return lo - 1;
  return null;
}

// ─── Rule documentation ─────────────────────────────────────────────────────────────────

/**
 * The sections of docs/diagnostics.md per rule id: each `### \`rule.id\` …` heading up to the
 * next heading. A rule documented in two places gets both sections, in order.
 */
export function parseRuleDocs(markdown: string): Map<string, string> {
  const docs = new Map<string, string>();
  let current: string[] | null = null;
  let lines: string[] = [];
  const flush = (): void => {
    if (current) {
      const text = lines.join('\n').trim();
      for (const rule of current) docs.set(rule, docs.has(rule) ? `${docs.get(rule) ?? ''}\n\n${text}` : text);
    }
    current = null;
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    if (/^#{1,3} /.test(line)) {
      flush();
      if (line.startsWith('### ')) {
        const ids = [...line.matchAll(/`([a-z0-9-]+(?:\.[a-z0-9-]+)+)`/g)]
          .map((m) => m[1] ?? '')
          .filter((id) => id !== '');
        if (ids.length > 0) current = ids;
      }
      continue;
    }
    if (current && !line.startsWith('<!--')) lines.push(line);
  }
  flush();
  return docs;
}
