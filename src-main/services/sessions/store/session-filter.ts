import { nameAgents } from '../../../../src-shared/agents/names';
import type { Diagnostic } from '../../../../src-shared/diagnostics/types';
import type { Envelope } from '../../../../src-shared/envelope/types';
import { envelopeReader, type Expr } from '../../../../src-shared/filter';
import { fieldsOf } from '../../../../src-shared/filter/ast';
import { compileFilter } from '../../../../src-shared/filter/evaluate';
import { findingsByEnvelope } from '../../../../src-shared/filter/subjects';
import { piecesMatching } from '../../../../src-shared/reconstruct/text-search';
import type { AgentInfo, Block } from '../../../../src-shared/reconstruct/types';
import type { EnvelopeTable } from './envelope-table';

/** What a filter (docs/filters.md) reads of a session. */
export interface FilterSubjects {
  readonly envelopes: EnvelopeTable;
  blocks(): readonly Block[];
  agents(): readonly AgentInfo[];
  diagnostics(): readonly Diagnostic[];
  /** The first envelope of a leg's frame, if it has one. */
  firstEnvelope(leg: number, frame: number): number | undefined;
  /** When the session's first leg started (an envelope's `time` counts from it). */
  startedAt: number;
}

/** The envelopes `filter` lets through, in order, at most `max`. */
export function filterEnvelopes(
  session: FilterSubjects,
  filter: Expr,
  max: number,
): { seqs: number[]; truncated: boolean } {
  const { envelopes } = session;
  const match = compileFilter(filter, { ...envelopeReader(), textAcross: (needle) => textInBlocks(session, needle) });
  // Agent names and findings by envelope cost a pass of their own: only when the filter reads them.
  const fields = fieldsOf(filter);
  const readsAgents = fields.has('agent') || fields.has('text');
  const seen = new Set<string>();
  if (readsAgents) for (let seq = 0; seq < envelopes.count; seq++) seen.add(envelopes.agent(seq));
  const names = readsAgents ? nameAgents(session.agents(), [...seen]) : new Map<string, { name: string }>();
  const findings = [...fields].some((f) => f.startsWith('finding.'))
    ? findingsByEnvelope(session.diagnostics(), (leg, frame) => session.firstEnvelope(leg, frame))
    : new Map<number, Diagnostic[]>();
  const seqs: number[] = [];
  for (let seq = 0; seq < envelopes.count; seq++) {
    const envelope = envelopes.get(seq);
    if (!envelope) continue;
    const block = envelopes.block(seq);
    const subject = {
      envelope,
      agentName: names.get(envelope.agent)?.name ?? envelope.agent,
      block: block < 0 ? undefined : session.blocks()[block],
      findings: findings.get(seq) ?? [],
      time: envelope.receivedAt > 0 ? Math.max(0, envelope.receivedAt - session.startedAt) : 0,
    };
    if (!match(subject)) continue;
    if (seqs.length === max) return { seqs, truncated: true };
    seqs.push(seq);
  }
  return { seqs, truncated: false };
}

/** Envelopes carrying part of a match in a block's reassembled text (a word split across deltas). */
function textInBlocks(session: FilterSubjects, needle: string): (subject: { envelope: Envelope }) => boolean {
  const { envelopes } = session;
  const hits = new Set<number>();
  for (const block of session.blocks()) {
    // Citations and images attach to the block without adding to its text.
    const pieces = block.envelopes
      .filter((seq) => envelopes.type(seq) === block.kind)
      .map((seq) => ({ seq, length: envelopes.delta(seq).length }));
    for (const seq of piecesMatching(block.content, pieces, needle)) hits.add(seq);
  }
  return (subject) => hits.has(subject.envelope.seq);
}
