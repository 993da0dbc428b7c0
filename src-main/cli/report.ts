import type { Severity } from '../../src-shared/diagnostics/types';
import { blockEndFacts, type EndStatus } from '../../src-shared/pipeline/end-status';
import type { MessageSummary } from '../../src-shared/dialects/provider/message-summary';
import { countOf } from '../../src-shared/text/count';
import { MAX_INDENT } from '../../src-shared/agents/names';
import type { DecodedFile } from './decode-file';
import { createReportCollector } from './report-collector';
import type { Segment } from '../../src-shared/inline/types';
import type { Block } from '../../src-shared/reconstruct/types';
import { decodedAs } from '../../src-shared/dialects/detection';
import { dialectLabel } from '../../src-shared/dialects/registry';
import { agentLabel, NO_AGENT_ID } from './agent-label';

export interface RuleCount {
  rule: string;
  severity: Severity;
  count: number;
  first: string;
}

export interface InspectReport {
  /** What the file was recognised as: recording, sse, ndjson-envelopes, har… */
  kind: string;
  formats: DecodedFile['formats'];
  /** Per leg: what chose its format (docs/dialects.md, "How a dialect is chosen"). */
  detections: DecodedFile['detections'];
  bytes: number;
  frames: number;
  envelopes: number;
  agents: { uuid: string; parent: string | null; envelopes: number; model?: string }[];
  envelopeTypes: Record<string, number>;
  /** Provider dialects: how many envelopes map to each unified event family (docs/protocols/provider-events.md). */
  unifiedEvents?: Record<string, number>;
  /** Provider dialects: each message's model, status, stop reason, usage and timing. */
  messages?: MessageSummary[];
  blocks: {
    id: number;
    agent: string;
    kind: string;
    status: Block['status'];
    bytes: number;
    name?: string;
    toolId?: string;
    segments?: Record<string, number>;
  }[];
  diagnostics: RuleCount[];
  errors: number;
  /** How the stream ended: done, ended by error, truncated, awaiting tools… */
  status: EndStatus;
}

/** The report of a file decoded whole (`check`, and `inspect --filter`, which keeps every envelope). */
export function buildReport(result: DecodedFile): InspectReport {
  const collector = createReportCollector();
  for (const e of result.envelopes) collector.envelope(e);
  for (const d of result.diagnostics) collector.diagnostic(d);
  for (const a of result.agents) collector.agent(a);
  for (const b of result.blocks) collector.block(b, true);
  return collector.report({
    ...result,
    frames: result.frames.reduce((sum, frames) => sum + frames.length, 0),
    blockFacts: blockEndFacts(result.blocks, result.ends.length - 1),
  });
}

/** One rule's findings on one line: severity, count, rule and its first message. */
export function formatRuleCount(d: RuleCount): string {
  return `  ${d.severity.padEnd(7)} ${String(d.count).padStart(5)}× ${d.rule}  — ${d.first}`;
}

/** One segment on one line: id, type, what names it (tool, path), parameters, content preview. */
export function formatSegment(s: Segment): string {
  const names = [s.metadata['tool_name'], s.metadata['path']]
    .filter((v) => typeof v === 'string')
    .map((v) => JSON.stringify(v));
  const params = Object.entries(s.params).map(([k, v]) => `${k}=${preview(v, 40)}`);
  return [`${s.id} ${s.type}`, ...names, ...params, s.complete ? '' : '(unclosed)', `: ${preview(s.content, 120)}`]
    .filter(Boolean)
    .join(' ');
}

/**
 * One line per provider message: id, model, status, stop reason, tokens and timing. Its fields
 * are the dialect's (a JSON-RPC exchange has no model): a field that is not a string, or is
 * empty, is left out.
 */
function describeMessage(m: MessageSummary): string {
  const parts: unknown[] = [m.id, m.model, m.status];
  const reason = m.stop_reason;
  // A reason that is the word itself (the AI SDK's and Chat Completions' `stop`, Gemini's `STOP`) is said once.
  if (reason !== undefined) parts.push(String(reason).toLowerCase() === 'stop' ? reason : `stop ${reason}`);
  const input = m.usage?.['input_tokens'];
  const output = m.usage?.['output_tokens'];
  if (typeof input === 'number') parts.push(`${input} in / ${typeof output === 'number' ? output : '?'} out tokens`);
  if (m.time_to_first_token_ms !== undefined) parts.push(`TTFT ${m.time_to_first_token_ms} ms`);
  if (m.output_tokens_per_second !== undefined) parts.push(`${m.output_tokens_per_second} tokens/s`);
  return JSON.stringify(parts.filter((p) => typeof p === 'string' && p !== '').join(' · '));
}

export function preview(text: string, max = 60): string {
  const flat = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return flat;
}

function agentTree(report: InspectReport): string[] {
  const uuids = new Set(report.agents.map((a) => a.uuid));
  const children = new Map<string | null, InspectReport['agents']>();
  for (const a of report.agents) {
    const parent = a.parent && uuids.has(a.parent) ? a.parent : null;
    const list = children.get(parent);
    if (list) list.push(a);
    else children.set(parent, [a]);
  }
  const lines: string[] = [];
  // Depth first with an explicit stack: a stream decides how deep sub-agents nest.
  const stack = (children.get(null) ?? []).map((agent) => ({ agent, depth: 0 })).reverse();
  const seen = new Set<string>();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { agent: a, depth } = next;
    const via = a.parent && depth === 0 ? ` (parent ${agentLabel(a.parent)} not seen)` : '';
    // Indented up to MAX_INDENT; deeper agents say their depth instead of indenting further.
    const branch = depth === 0 ? '' : depth > MAX_INDENT ? `└ [depth ${depth}] ` : '└ ';
    lines.push(
      `  ${'  '.repeat(Math.min(depth, MAX_INDENT))}${branch}${a.uuid || NO_AGENT_ID}  ${countOf(a.envelopes, 'envelope')}${a.model ? `  ${a.model}` : ''}${via}`,
    );
    if (seen.has(a.uuid)) continue;
    seen.add(a.uuid);
    for (const child of [...(children.get(a.uuid) ?? [])].reverse()) stack.push({ agent: child, depth: depth + 1 });
  }
  return lines;
}

/**
 * "Decoded as JSON envelopes — from the stream's own events", once for a session whose legs
 * agree, else per leg; nothing for legs without an event.
 */
export function decodedAsLines(report: Pick<InspectReport, 'formats' | 'detections'>): string[] {
  const lines = report.formats.map((format, leg) =>
    format === null
      ? null
      : decodedAs(dialectLabel(format, report.detections[leg] ?? undefined), report.detections[leg] ?? undefined),
  );
  const distinct = [...new Set(lines.filter((line) => line !== null))];
  if (distinct.length <= 1) return distinct;
  return lines.flatMap((line, leg) => (line === null ? [] : [`Leg ${leg}: ${line}`]));
}

export function formatReport(report: InspectReport, file: string): string {
  const out: string[] = [];
  out.push(
    `${file} (${report.kind}): ${report.formats.map((f) => f ?? 'undetected').join(', ')} · ${countOf(report.bytes, 'byte')} · ${countOf(report.frames, 'event')} · ${countOf(report.envelopes, 'envelope')}`,
  );
  out.push(...decodedAsLines(report));
  out.push(`Status: ${report.status.label} — ${report.status.reason}`);
  out.push('', 'Agents:', ...(report.agents.length ? agentTree(report) : ['  (none)']));
  // An empty section says so, as Agents and Diagnostics do.
  out.push('', Object.keys(report.envelopeTypes).length ? 'Envelopes by type:' : 'Envelopes by type: none');
  for (const [type, count] of Object.entries(report.envelopeTypes).sort((a, b) => b[1] - a[1]))
    out.push(`  ${String(count).padStart(6)}  ${type}`);
  for (const message of report.messages ?? []) out.push('', `Message ${describeMessage(message)}`);
  out.push('', `Blocks (${report.blocks.length}):`);
  // The agent column is as wide as its longest id, so that the columns after it line up.
  const agentWidth = Math.max(8, ...report.blocks.map((b) => agentLabel(b.agent).length));
  for (const b of report.blocks) {
    const label = [b.name, b.toolId].filter(Boolean).join(' ');
    const segments =
      b.segments && Object.keys(b.segments).some((t) => t !== 'text')
        ? `  segments: ${Object.entries(b.segments)
            .map(([t, n]) => `${n} ${t}`)
            .join(', ')}`
        : '';
    out.push(
      `  #${String(b.id).padEnd(4)} ${agentLabel(b.agent).padEnd(agentWidth)}  ${b.kind.padEnd(24)} ${b.status.padEnd(9)} ${String(b.bytes).padStart(7)} bytes${label ? `  ${label}` : ''}${segments}`,
    );
  }
  out.push('', report.diagnostics.length ? 'Diagnostics:' : 'Diagnostics: none');
  for (const d of report.diagnostics) out.push(formatRuleCount(d));
  out.push('');
  return out.join('\n');
}
