import { utf8ByteLength } from '../../src-shared/text/utf8';
import { SEVERITY_RANK } from '../../src-shared/diagnostics/severity';
import type { Diagnostic } from '../../src-shared/diagnostics/types';
import type { MessageSummary } from '../../src-shared/dialects/provider/message-summary';
import type { Envelope } from '../../src-shared/envelope/types';
import { KIND } from '../../src-shared/envelope/vocabulary';
import type { Segment } from '../../src-shared/inline/types';
import { endStatusOf, type EndFacts } from '../../src-shared/pipeline/end-status';
import type { LegEnd } from '../../src-shared/pipeline/types';
import type { AgentInfo, Block } from '../../src-shared/reconstruct/types';
import { LostData } from '../../src-shared/recording/diagnostics';
import type { DecodedFile } from './decode-file';
import type { InspectReport, RuleCount } from './report';

/** How a file's decoding ended, besides what the collector saw: what the report needs of the file. */
export interface ReportEnd {
  kind: string;
  formats: DecodedFile['formats'];
  detections: DecodedFile['detections'];
  ends: Pick<LegEnd, 'bytes' | 'stream'>[];
  frames: number;
  blockFacts: Pick<EndFacts, 'openBlocks' | 'abandonedBlocks' | 'awaitingTools' | 'awaiting'>;
  lastLegOutcome: DecodedFile['lastLegOutcome'];
  lastLegAnswered: boolean;
}

/**
 * What `inspect` reports, gathered as the decoder goes (src-main/cli/report.ts formats it):
 * counts per envelope type, agent and rule, one line per block and the provider messages, and
 * nothing per envelope, so a file of any size is reported in memory that grows only with its
 * blocks and agents (docs/reliability.md, "Memory that does not grow with the stream"). Blocks are taken once finished (or at the end, still open):
 * their lines do not change after that.
 */
export function createReportCollector() {
  const envelopeTypes: Record<string, number> = {};
  const unifiedEvents: Record<string, number> = {};
  const perAgent = new Map<string, number>();
  const agents = new Map<string, AgentInfo>();
  const rules = new Map<string, RuleCount>();
  const lost = new LostData();
  let envelopes = 0;
  let errors = 0;
  const blocks = new Map<number, InspectReport['blocks'][number]>();
  const messages = new Map<number, MessageSummary>();

  return {
    envelope(e: Envelope): void {
      envelopes++;
      envelopeTypes[e.type] = (envelopeTypes[e.type] ?? 0) + 1;
      if (e.unified) unifiedEvents[e.unified.family] = (unifiedEvents[e.unified.family] ?? 0) + 1;
      if (!e.control) perAgent.set(e.agent, (perAgent.get(e.agent) ?? 0) + 1);
    },
    diagnostic(d: Diagnostic): void {
      if (d.severity === 'error') errors++;
      lost.add(d);
      const entry = rules.get(d.rule);
      if (entry) entry.count++;
      else rules.set(d.rule, { rule: d.rule, severity: d.severity, count: 1, first: d.message });
    },
    /** An agent seen (the decoder's live object: its model may be filled in later). */
    agent(a: AgentInfo): void {
      if (!agents.has(a.uuid)) agents.set(a.uuid, a);
    },
    /** A block as it is now; its line is kept from the first time it is no longer open (or at the end). */
    block(b: Block, atEnd = false): void {
      if (blocks.has(b.id) || (b.status === 'open' && !atEnd)) return;
      blocks.set(b.id, {
        id: b.id,
        agent: b.agent,
        kind: b.kind,
        status: b.status,
        bytes: utf8ByteLength(b.content),
        ...(b.name !== undefined ? { name: b.name } : {}),
        ...(b.toolId !== undefined ? { toolId: b.toolId } : {}),
        ...(b.segments ? { segments: segmentCounts(b.segments) } : {}),
      });
      if (b.kind === KIND.message && b.parsed !== undefined) messages.set(b.id, b.parsed as MessageSummary);
    },
    report(end: ReportEnd): InspectReport {
      const byId = <T>(map: Map<number, T>): T[] => [...map].sort(([a], [b]) => a - b).map(([, value]) => value);
      const lostData = lost.describe();
      return {
        kind: end.kind,
        formats: end.formats,
        detections: end.detections,
        bytes: end.ends.reduce((sum, leg) => sum + leg.bytes, 0),
        frames: end.frames,
        envelopes,
        agents: [...agents.values()].map((a) => ({
          uuid: a.uuid,
          parent: a.parent,
          envelopes: perAgent.get(a.uuid) ?? 0,
          ...(a.model ? { model: a.model } : {}),
        })),
        envelopeTypes,
        ...(Object.keys(unifiedEvents).length > 0 ? { unifiedEvents, messages: byId(messages) } : {}),
        blocks: byId(blocks),
        diagnostics: sortRuleCounts([...rules.values()]),
        errors,
        status: endStatusOf({
          stream: end.ends.at(-1)?.stream ?? null,
          ...end.blockFacts,
          answered: end.lastLegAnswered,
          ...(lostData ? { lostData } : {}),
          ...recordedOutcome(end.lastLegOutcome),
        }),
      };
    },
  };
}

/** Segments of a text block by type, in order of first appearance. */
function segmentCounts(segments: readonly Segment[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of segments) counts[s.type] = (counts[s.type] ?? 0) + 1;
  return counts;
}

/** A recording's last leg end as an end-status outcome: stopped by the user, failed, or cut by the recording's end. */
function recordedOutcome(outcome: DecodedFile['lastLegOutcome']): Pick<EndFacts, 'outcome'> {
  if (outcome === null || outcome?.reason === 'done') return {};
  if (outcome === undefined)
    return {
      outcome: { kind: 'cut', message: 'the recording ends inside this leg (the recorder was stopped or crashed)' },
    };
  if (outcome.reason === 'aborted') return { outcome: { kind: 'stopped' } };
  return { outcome: { kind: 'failed', message: outcome.message ?? 'the recorded leg failed' } };
}

/**
 * Rules by severity (errors first), then by id. Ids are ASCII, compared as such:
 * localeCompare would load the ICU collator, some 10 ms of every run's start-up.
 */
export function sortRuleCounts<T extends Pick<RuleCount, 'rule' | 'severity'>>(rules: T[]): T[] {
  return rules.sort(
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
}
