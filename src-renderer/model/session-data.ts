import type {
  AgentInfoPayload,
  BlockSummary,
  DiagnosticPayload,
  DiagnosticsPage,
  SessionBatch,
  SessionDetail,
  SessionSummary,
} from '../../src-shared/contract';
import type { SessionData } from './types';

/**
 * Pure updates of one session's data. Everything is keyed (blocks by id, diagnostics by seq,
 * agents by uuid), so a batch and a fetch that overlap merge to the same result in any order.
 */

export function emptySessionData(summary: SessionSummary): SessionData {
  return {
    id: summary.id,
    summary,
    detail: null,
    total: summary.envelopes,
    agents: [],
    blocks: [],
    blocksVersion: 0,
    diagnostics: [],
    live: null,
    progress: null,
    replay: null,
    loaded: false,
    blocksLoaded: false,
    diagnosticsLoaded: false,
  };
}

/** A summary's or batch's generation: bumps when main starts the session over from empty. */
export function generationOf(value: { readonly generation?: number | undefined }): number {
  return value.generation ?? 0;
}

/**
 * The session started over from empty in main (a replay seeking backwards): blocks, agents,
 * diagnostics and the legs of the detail belong to the old start and go; batches of the new
 * one bring everything from the beginning (blocks and findings are fetched again by the views
 * that show them). Live and replay status stay (they are current).
 */
export function restartSessionData(data: SessionData, summary: SessionSummary): SessionData {
  return { ...emptySessionData(summary), live: data.live, replay: data.replay, loaded: data.loaded };
}

/** A batch brings rows (kept by the timeline), the session's total and new agents. */
export function applyBatch(data: SessionData, batch: SessionBatch): SessionData {
  const total = Math.max(data.total, batch.total);
  const agents = batch.agents.length > 0 ? mergeAgents(data.agents, batch.agents) : data.agents;
  if (total === data.total && agents === data.agents) return data;
  return { ...data, total, agents };
}

/** Block summaries fetched because they changed (see SessionsModel.watch). */
export function applyBlockChanges(data: SessionData, changed: readonly BlockSummary[]): SessionData {
  if (changed.length === 0) return data.blocksLoaded ? data : { ...data, blocksLoaded: true };
  return {
    ...data,
    blocks: mergeBlocks(data.blocks, changed),
    blocksVersion: data.blocksVersion + 1,
    blocksLoaded: true,
  };
}

/** Findings fetched from where the held list ends, or the whole list when main replaced it (`from` 0). */
export function applyDiagnosticsPage(data: SessionData, page: DiagnosticsPage): SessionData {
  const diagnostics =
    page.from === 0
      ? page.diagnostics
      : page.diagnostics.length > 0
        ? mergeDiagnostics(data.diagnostics, page.diagnostics)
        : data.diagnostics;
  if (diagnostics === data.diagnostics && data.diagnosticsLoaded) return data;
  return { ...data, diagnostics, diagnosticsLoaded: true };
}

export function applyDetail(data: SessionData, detail: SessionDetail): SessionData {
  // Fetched before the session started over: it describes what is gone.
  if (generationOf(detail.summary) < generationOf(data.summary)) return data;
  return {
    ...data,
    detail,
    summary: newerSummary(data.summary, detail.summary),
    total: Math.max(data.total, detail.summary.envelopes),
    agents: sameAgentsOr(data.agents, mergeAgents(detail.agents, data.agents)),
  };
}

export function applySummary(data: SessionData, summary: SessionSummary): SessionData {
  if (summary === data.summary) return data;
  return { ...data, summary, total: Math.max(data.total, summary.envelopes) };
}

/**
 * Whether a summary change means the detail (legs, pending tools, failure) is stale: a new
 * leg, a new state, or the awaiting-tools flag flipping.
 */
export function detailIsStale(before: SessionSummary, after: SessionSummary): boolean {
  return (
    before.legs !== after.legs ||
    before.state !== after.state ||
    before.awaitingTools !== after.awaitingTools ||
    before.choosingHarEntries !== after.choosingHarEntries ||
    before.failure?.message !== after.failure?.message
  );
}

function newerSummary(current: SessionSummary, fetched: SessionSummary): SessionSummary {
  return fetched.envelopes >= current.envelopes ? fetched : current;
}

export function mergeBlocks(
  current: readonly (BlockSummary | undefined)[],
  incoming: readonly BlockSummary[],
): (BlockSummary | undefined)[] {
  const next = current.slice();
  for (const block of incoming) next[block.id] = block;
  // Fill holes with explicit undefined so the array is dense for iteration.
  for (let i = 0; i < next.length; i++) if (!(i in next)) next[i] = undefined;
  return next;
}

/**
 * `current` with `incoming` merged in by uuid; `current` itself when that changes nothing (a
 * session's detail lists every agent each time it is fetched), so the views that derive names
 * and colours from the list do not redo that, and redraw every row.
 */
export function mergeAgents(
  current: readonly AgentInfoPayload[],
  incoming: readonly AgentInfoPayload[],
): readonly AgentInfoPayload[] {
  const byUuid = new Map<string, AgentInfoPayload>();
  for (const agent of current) byUuid.set(agent.uuid, agent);
  for (const agent of incoming) byUuid.set(agent.uuid, { ...byUuid.get(agent.uuid), ...agent });
  return sameAgentsOr(
    current,
    [...byUuid.values()].sort((a, b) => a.firstEnvelope - b.firstEnvelope),
  );
}

/** `held` when `merged` lists the same agents with the same fields, else `merged`. */
function sameAgentsOr(
  held: readonly AgentInfoPayload[],
  merged: readonly AgentInfoPayload[],
): readonly AgentInfoPayload[] {
  return merged.length === held.length && merged.every((agent, i) => sameFields(agent, held[i]!)) ? held : merged;
}

function sameFields(a: AgentInfoPayload, b: AgentInfoPayload): boolean {
  const keys = Object.keys(a) as (keyof AgentInfoPayload)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

export function mergeDiagnostics(
  current: readonly DiagnosticPayload[],
  incoming: readonly DiagnosticPayload[],
): DiagnosticPayload[] {
  const last = current[current.length - 1];
  // The common case: new findings continue the list.
  if (incoming.every((d, i) => (i === 0 ? last === undefined || d.seq > last.seq : d.seq > incoming[i - 1]!.seq))) {
    return [...current, ...incoming];
  }
  const bySeq = new Map<number, DiagnosticPayload>();
  for (const d of current) bySeq.set(d.seq, d);
  for (const d of incoming) bySeq.set(d.seq, d);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
