import type { InspectorService, LiveStatus, ReplayState, SessionBatch, SessionSummary } from '../../src-shared/contract';
import type { ReadableStore, SessionData, SessionsSnapshot } from '../app/types';
import { createBatchQueue, type BatchQueue } from './batch-queue';
import type { FrameScheduler } from './scheduler';
import { applyBatch, applyDetail, applyLoaded, applySummary, detailIsStale, emptySessionData, generationOf, restartSessionData } from './session-data';
import { createStore, type Store } from './store';
import { TimelineModel } from './timeline';

export interface SessionsDeps {
  readonly service: Pick<InspectorService, 'getSession' | 'getBlocks' | 'getDiagnostics' | 'getRows' | 'filterRows'>;
  readonly scheduler: FrameScheduler;
  readonly reportError: (context: string, error: unknown, sessionId?: string) => void;
  readonly maxRowsPerFrame?: number;
}

interface Entry {
  readonly data: Store<SessionData>;
  readonly timeline: TimelineModel;
  loading: Promise<void> | null;
  refreshing: Promise<void> | null;
  refreshAgain: boolean;
}

/**
 * The sessions the renderer knows: the list main announces, and per session its data store
 * and timeline. Batches go through one frame-batched queue; live status and replay state are
 * small and applied as they come.
 */
export class SessionsModel {
  readonly list: Store<SessionsSnapshot> = createStore<SessionsSnapshot>({ list: [], activeId: null });
  private readonly entries = new Map<string, Entry>();
  private readonly queue: BatchQueue;

  constructor(private readonly deps: SessionsDeps) {
    this.queue = createBatchQueue((batches) => this.applyBatches(batches), deps.scheduler, deps.maxRowsPerFrame);
  }

  // ─── Events from main ───────────────────────────────────────────────────────────────

  receiveBatch(batch: SessionBatch): void {
    this.queue.push(batch);
  }

  /** Applies queued batches immediately. */
  flush(): void {
    this.queue.flushAll();
  }

  applySessionsChanged(list: readonly SessionSummary[]): void {
    const sorted = [...list].sort((a, b) => b.createdAt - a.createdAt);
    const current = this.list.getSnapshot();
    const activeId = current.activeId !== null && sorted.some((s) => s.id === current.activeId) ? current.activeId : null;
    this.list.set({ list: sorted, activeId });
    for (const summary of sorted) {
      const entry = this.entries.get(summary.id);
      if (!entry) continue;
      if (this.restartIfNewer(entry, summary)) continue;
      const before = entry.data.getSnapshot();
      entry.data.set(applySummary(before, summary));
      if (before.loaded && detailIsStale(before.summary, summary)) void this.refresh(summary.id);
    }
    for (const id of [...this.entries.keys()]) {
      if (!sorted.some((s) => s.id === id)) this.forget(id);
    }
  }

  applyLiveStatus(status: LiveStatus): void {
    this.entryFor(status.sessionId).data.update((data) => ({ ...data, live: status }));
  }

  applyReplayState(state: ReplayState): void {
    this.entryFor(state.sessionId).data.update((data) => ({ ...data, replay: state }));
  }

  // ─── Queries ────────────────────────────────────────────────────────────────────────

  setActive(id: string | null): void {
    const current = this.list.getSnapshot();
    if (current.activeId === id) return;
    this.list.set({ ...current, activeId: id });
    if (id !== null) this.load(id);
  }

  /** Adds a session main just returned (connect, open) before the list event arrives. */
  upsert(summary: SessionSummary): void {
    const current = this.list.getSnapshot();
    if (current.list.some((s) => s.id === summary.id)) return;
    this.list.set({ ...current, list: [summary, ...current.list] });
  }

  summary(id: string): SessionSummary | undefined {
    return this.list.getSnapshot().list.find((s) => s.id === id);
  }

  /** The session's data store (stable per id); loads blocks, diagnostics and detail once. */
  data(id: string): ReadableStore<SessionData> {
    const entry = this.entryFor(id);
    this.load(id);
    return entry.data;
  }

  timeline(id: string): TimelineModel {
    return this.entryFor(id).timeline;
  }

  /** Re-fetches the detail (coalesced: at most one request in flight, one queued). */
  refresh(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.resolve();
    if (entry.refreshing) {
      entry.refreshAgain = true;
      return entry.refreshing;
    }
    entry.refreshing = this.deps.service.getSession({ sessionId: id }).then(
      (detail) => {
        entry.data.update((data) => applyDetail(data, detail));
      },
      (error: unknown) => this.deps.reportError('Load session', error, id),
    ).finally(() => {
      entry.refreshing = null;
      if (entry.refreshAgain) {
        entry.refreshAgain = false;
        void this.refresh(id);
      }
    });
    return entry.refreshing;
  }

  // ─── Internals ──────────────────────────────────────────────────────────────────────

  private applyBatches(batches: readonly SessionBatch[]): void {
    // Group per session so each store notifies once per frame.
    const bySession = new Map<string, SessionBatch[]>();
    for (const batch of batches) {
      const group = bySession.get(batch.sessionId);
      if (group) group.push(batch);
      else bySession.set(batch.sessionId, [batch]);
    }
    for (const [id, group] of bySession) {
      const entry = this.entryFor(id);
      let data = entry.data.getSnapshot();
      for (const batch of group) {
        const generation = generationOf(batch);
        // A batch sent before the session started over describes rows that are gone.
        if (generation < generationOf(data.summary)) continue;
        if (generation > generationOf(data.summary)) {
          this.restart(entry, { ...data.summary, generation, envelopes: 0 });
          data = entry.data.getSnapshot();
        }
        data = applyBatch(data, batch);
        entry.timeline.applyBatch(batch);
      }
      entry.data.set(data);
    }
  }

  /** A summary of a newer generation: the session started over in main. */
  private restartIfNewer(entry: Entry, summary: SessionSummary): boolean {
    if (generationOf(summary) <= generationOf(entry.data.getSnapshot().summary)) return false;
    this.restart(entry, summary);
    return true;
  }

  private restart(entry: Entry, summary: SessionSummary): void {
    entry.data.set(restartSessionData(entry.data.getSnapshot(), summary));
    entry.timeline.reset();
    void this.refresh(summary.id);
  }

  private entryFor(id: string): Entry {
    // A batch can arrive before the list event that announces its session: start with a placeholder summary.
    return this.entries.get(id) ?? this.createEntry(id, this.summary(id) ?? placeholderSummary(id));
  }

  private createEntry(id: string, summary: SessionSummary): Entry {
    const entry: Entry = {
      data: createStore(emptySessionData(summary)),
      timeline: new TimelineModel(id, {
        service: this.deps.service,
        scheduler: this.deps.scheduler,
        reportError: (context, error) => this.deps.reportError(context, error, id),
      }),
      loading: null,
      refreshing: null,
      refreshAgain: false,
    };
    this.entries.set(id, entry);
    return entry;
  }

  private load(id: string): void {
    const entry = this.entryFor(id);
    if (entry.loading) return;
    const sessionId = id;
    entry.loading = Promise.all([
      this.deps.service.getSession({ sessionId }),
      this.deps.service.getBlocks({ sessionId }),
      this.deps.service.getDiagnostics({ sessionId }),
    ]).then(
      ([detail, blocks, diagnostics]) => {
        entry.data.update((data) => applyLoaded(data, { detail, blocks, diagnostics }));
        entry.timeline.growTo(entry.data.getSnapshot().total);
        entry.timeline.backfill();
      },
      (error: unknown) => {
        this.deps.reportError('Load session', error, id);
        // Allow a later attempt (e.g. when the user selects the session again).
        entry.loading = null;
      },
    );
  }

  private forget(id: string): void {
    const entry = this.entries.get(id);
    entry?.timeline.dispose();
    this.entries.delete(id);
  }
}

function placeholderSummary(id: string): SessionSummary {
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
    diagnostics: { error: 0, warning: 0, info: 0 },
    awaitingTools: false,
  };
}
