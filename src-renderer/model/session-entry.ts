import type { SessionSummary } from '../../src-shared/contract';
import { zeroSeverityCounts } from '../../src-shared/diagnostics/severity';
import { OnDemand } from './on-demand';
import { applyBlockChanges, applyDiagnosticsPage, emptySessionData, generationOf } from './session-data';
import type { SessionsDeps } from './sessions';
import { createStore, type Store } from './store';
import { TimelineModel } from './timeline';
import type { SessionData } from './types';

/** A view that shows blocks or findings keeps them current at most this often while they change. */
export const ON_DEMAND_INTERVAL_MS = 200;

/**
 * One session the renderer knows: its data store and timeline, and how far main has got
 * against what is held, so that its blocks and findings are fetched (OnDemand) only while a
 * view shows them and only for what changed.
 */
export interface SessionEntry {
  readonly data: Store<SessionData>;
  readonly timeline: TimelineModel;
  loading: Promise<void> | null;
  refreshing: Promise<void> | null;
  refreshAgain: boolean;
  readonly blocks: OnDemand;
  readonly diagnostics: OnDemand;
  /** How far main has got, as batches (and fetches) reported it. */
  blockRevision: number;
  diagnosticCount: number;
  diagnosticResets: number;
  /** The block revision and findings replacement the held data is at. */
  heldBlockRevision: number;
  heldResets: number;
}

/**
 * A new session entry. `isCurrent`: whether the entry is still the session's (not closed or
 * replaced meanwhile): a fetch answered for another one is dropped, and not reported.
 */
export function createSessionEntry(
  id: string,
  summary: SessionSummary,
  deps: Pick<SessionsDeps, 'service' | 'scheduler' | 'reportError'>,
  isCurrent: (entry: SessionEntry) => boolean,
): SessionEntry {
  const { scheduler } = deps;
  const entry: SessionEntry = {
    data: createStore(emptySessionData(summary)),
    timeline: new TimelineModel(id, {
      service: deps.service,
      scheduler,
      reportError: (context, error) => deps.reportError(context, error, id),
    }),
    loading: null,
    refreshing: null,
    refreshAgain: false,
    blocks: new OnDemand(
      scheduler,
      () => !entry.data.getSnapshot().blocksLoaded || entry.heldBlockRevision < entry.blockRevision,
      () => fetchBlocks(),
      ON_DEMAND_INTERVAL_MS,
    ),
    diagnostics: new OnDemand(
      scheduler,
      () => {
        const data = entry.data.getSnapshot();
        return (
          !data.diagnosticsLoaded ||
          entry.heldResets < entry.diagnosticResets ||
          data.diagnostics.length < entry.diagnosticCount
        );
      },
      () => fetchDiagnostics(),
      ON_DEMAND_INTERVAL_MS,
    ),
    blockRevision: 0,
    diagnosticCount: 0,
    diagnosticResets: 0,
    heldBlockRevision: 0,
    heldResets: 0,
  };

  /** The answer to a fetch asked at `generation` still applies: same entry, not started over. */
  const stillApplies = (generation: number): boolean =>
    isCurrent(entry) && generation === generationOf(entry.data.getSnapshot().summary);

  /** Reports a failed fetch (not for a session closed meanwhile) and rejects, so the next batch asks again. */
  const failed = (context: string, error: unknown): Promise<never> => {
    if (isCurrent(entry)) deps.reportError(context, error, id);
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  };

  /** The block summaries that changed since the revision held (all of them the first time). */
  function fetchBlocks(): Promise<void> {
    const generation = generationOf(entry.data.getSnapshot().summary);
    return deps.service.getBlockChanges({ sessionId: id, since: entry.heldBlockRevision }).then(
      (changes) => {
        // Asked before the session started over: the answer describes what is gone.
        if (!stillApplies(generation)) return;
        entry.heldBlockRevision = Math.max(entry.heldBlockRevision, changes.revision);
        entry.blockRevision = Math.max(entry.blockRevision, changes.revision);
        entry.data.update((data) => applyBlockChanges(data, changes.blocks));
      },
      (error: unknown) => failed('Load blocks', error),
    );
  }

  /** The findings after those held, or all of them when main replaced the list. */
  function fetchDiagnostics(): Promise<void> {
    const generation = generationOf(entry.data.getSnapshot().summary);
    const from = entry.data.getSnapshot().diagnostics.length;
    return deps.service.getDiagnosticsSince({ sessionId: id, from, resets: entry.heldResets }).then(
      (page) => {
        if (!stillApplies(generation)) return;
        entry.heldResets = page.resets;
        entry.diagnosticResets = Math.max(entry.diagnosticResets, page.resets);
        entry.data.update((data) => applyDiagnosticsPage(data, page));
      },
      (error: unknown) => failed('Load findings', error),
    );
  }

  return entry;
}

/** The summary of a session a batch named before the list announced it. */
export function placeholderSummary(id: string): SessionSummary {
  return {
    id,
    title: id,
    source: { kind: 'live', method: '', url: '' },
    state: 'loading',
    createdAt: 0,
    legs: 0,
    envelopes: 0,
    bytes: 0,
    format: null,
    diagnostics: zeroSeverityCounts(),
    awaitingTools: false,
  };
}
