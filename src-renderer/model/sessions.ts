import type {
  InspectorService,
  LiveStatus,
  TaskProgress,
  ReplayState,
  SessionBatch,
  SessionSummary,
} from '../../src-shared/contract';
import type { ReadableStore, SessionData, SessionPart, SessionsSnapshot } from './types';
import { createBatchQueue, type BatchQueue } from './batch-queue';
import { HeldCounts, onlyCountsMoved } from './held-counts';
import type { FrameScheduler } from './scheduler';
import { applyBatch, applyDetail, applySummary, detailIsStale, generationOf, restartSessionData } from './session-data';
import { createSessionEntry, placeholderSummary, type SessionEntry } from './session-entry';
import { createStore, type Store } from './store';
import type { TimelineModel } from './timeline';

export interface SessionsDeps {
  readonly service: Pick<
    InspectorService,
    'getSession' | 'getBlockChanges' | 'getDiagnosticsSince' | 'getRows' | 'filterRows'
  >;
  readonly scheduler: FrameScheduler;
  readonly reportError: (context: string, error: unknown, sessionId?: string) => void;
  readonly maxRowsPerFrame?: number;
}

/**
 * A file's batches are applied at most this often while it loads, its list counts and
 * progress with them (held-counts.ts): its table stays at its first rows, so what changes is
 * counts. Rendering those at every frame took a fifth of a core from the decoder the page
 * waits for; four times a second instead of ten took a further sixth of Chromium's CPU off a
 * 100 MB open (docs/performance.md, "Stop 39").
 */
export const FILE_LOAD_INTERVAL_MS = 250;

/** The key of the session list in the held counts. */
const HELD_LIST = 'list';

/**
 * A live session's batches are applied at most this often: every third or fourth frame at 60 Hz, and
 * at the next frame when they come less often. A fast stream changes every row on view at
 * every update, about 17 ms of the page's own work and as much again of raster; more often,
 * the page takes a core from the session worker and host that it shares two with, the host
 * falls behind and the backlog sets the latency (the live firehose at 25 ms: p95 arrival →
 * painted 1.6–2.0 s at load 4–5; at 50 ms 0.4–0.5 s: docs/performance.md, "Stop 54").
 * Arrival → painted grows by at most this interval.
 */
export const LIVE_INTERVAL_MS = 50;

/**
 * The sessions the renderer knows: the list main announces, and per session its data store
 * and timeline. Batches go through one frame-batched queue; live status and replay state are
 * small and applied as they come.
 */
export class SessionsModel {
  readonly list: Store<SessionsSnapshot> = createStore<SessionsSnapshot>({ list: [], activeId: null });
  private readonly entries = new Map<string, SessionEntry>();
  private readonly queue: BatchQueue;
  private readonly held: HeldCounts;

  constructor(private readonly deps: SessionsDeps) {
    this.held = new HeldCounts(deps.scheduler, FILE_LOAD_INTERVAL_MS);
    this.queue = createBatchQueue(
      (batches) => this.applyBatches(batches),
      deps.scheduler,
      deps.maxRowsPerFrame,
      (batch) => (this.summary(batch.sessionId)?.state === 'loading' ? FILE_LOAD_INTERVAL_MS : LIVE_INTERVAL_MS),
    );
  }

  // ─── Events from main ───────────────────────────────────────────────────────────────

  receiveBatch(batch: SessionBatch): void {
    this.queue.push(batch);
  }

  /** Applies queued batches, and the counts held for them, immediately. */
  flush(): void {
    this.held.release();
    this.queue.flushAll();
  }

  applySessionsChanged(list: readonly SessionSummary[]): void {
    if (onlyCountsMoved(this.list.getSnapshot().list, list)) {
      this.held.hold(HELD_LIST, () => this.applyList(list));
      return;
    }
    // This list replaces the one held; the progress and status held go first.
    this.held.drop(HELD_LIST);
    this.held.release();
    this.applyList(list);
  }

  private applyList(list: readonly SessionSummary[]): void {
    const sorted = [...list].sort((a, b) => b.createdAt - a.createdAt);
    const current = this.list.getSnapshot();
    const activeId =
      current.activeId !== null && sorted.some((s) => s.id === current.activeId) ? current.activeId : null;
    this.list.set({ list: this.withBatchedTotals(sorted), activeId });
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
    const apply = (): void => this.entryFor(status.sessionId).data.update((data) => ({ ...data, live: status }));
    // A stream's rates and counts render with its rows; a change of state at once.
    if (status.state === 'streaming' && this.summary(status.sessionId)?.state === 'streaming')
      this.held.hold(`live:${status.sessionId}`, apply);
    else apply();
  }

  applyProgress(progress: TaskProgress): void {
    const apply = (): void => {
      if (this.entries.has(progress.sessionId))
        this.entryFor(progress.sessionId).data.update((data) => ({ ...data, progress }));
    };
    // A file's progress renders with its rows; an export's (of a session that is not loading) at once.
    if (this.summary(progress.sessionId)?.state === 'loading') this.held.hold(`progress:${progress.sessionId}`, apply);
    else apply();
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

  /** A view shows the session's blocks or findings: keep them current until the returned function is called. */
  watch(id: string, part: SessionPart): () => void {
    return this.entryFor(id)[part].watch();
  }

  /** Re-fetches the detail (coalesced: at most one request in flight, one queued). */
  refresh(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.resolve();
    if (entry.refreshing) {
      entry.refreshAgain = true;
      return entry.refreshing;
    }
    entry.refreshing = this.deps.service
      .getSession({ sessionId: id })
      .then(
        (detail) => {
          entry.data.update((data) => applyDetail(data, detail));
        },
        (error: unknown) => this.deps.reportError('Load session', error, id),
      )
      .finally(() => {
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
    // The counts held since the last batches render with these.
    this.held.release();
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
        entry.blockRevision = Math.max(entry.blockRevision, batch.blockRevision);
        entry.diagnosticCount = batch.diagnosticCount;
        entry.diagnosticResets = Math.max(entry.diagnosticResets, batch.diagnosticResets ?? 0);
      }
      entry.data.set(data);
      entry.blocks.poke();
      entry.diagnostics.poke();
    }
    const current = this.list.getSnapshot();
    const list = this.withBatchedTotals(current.list);
    if (list !== current.list) this.list.set({ ...current, list });
  }

  /**
   * The list with each session's envelope count at least the rows its batches brought: the
   * list and the batches leave main on clocks of their own, and the sidebar's count must not
   * trail the table's. `list` itself when no count moved.
   */
  private withBatchedTotals(list: readonly SessionSummary[]): readonly SessionSummary[] {
    let out: SessionSummary[] | undefined;
    list.forEach((summary, i) => {
      const data = this.entries.get(summary.id)?.data.getSnapshot();
      if (!data || data.total <= summary.envelopes || generationOf(data.summary) !== generationOf(summary)) return;
      out ??= [...list];
      out[i] = { ...summary, envelopes: data.total };
    });
    return out ?? list;
  }

  /** A summary of a newer generation: the session started over in main. */
  private restartIfNewer(entry: SessionEntry, summary: SessionSummary): boolean {
    if (generationOf(summary) <= generationOf(entry.data.getSnapshot().summary)) return false;
    this.restart(entry, summary);
    return true;
  }

  private restart(entry: SessionEntry, summary: SessionSummary): void {
    entry.data.set(restartSessionData(entry.data.getSnapshot(), summary));
    entry.timeline.reset();
    entry.blockRevision = entry.heldBlockRevision = 0;
    entry.diagnosticCount = entry.diagnosticResets = entry.heldResets = 0;
    void this.refresh(summary.id);
    entry.blocks.poke();
    entry.diagnostics.poke();
  }

  private entryFor(id: string): SessionEntry {
    const existing = this.entries.get(id);
    if (existing) return existing;
    // A batch can arrive before the list event that announces its session: start with a placeholder summary.
    const entry = createSessionEntry(
      id,
      this.summary(id) ?? placeholderSummary(id),
      this.deps,
      (e) => this.entries.get(id) === e,
    );
    this.entries.set(id, entry);
    return entry;
  }

  private load(id: string): void {
    const entry = this.entryFor(id);
    if (entry.loading) return;
    const sessionId = id;
    entry.loading = this.deps.service.getSession({ sessionId }).then(
      (detail) => {
        entry.data.update((data) => ({ ...applyDetail(data, detail), loaded: true }));
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
