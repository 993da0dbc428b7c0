import type {
  AgentInfoPayload,
  AppInfo,
  BlockSummary,
  DemoAgentInfo,
  DiagnosticPayload,
  InspectorService,
  LiveStatus,
  ReplayState,
  SessionDetail,
  SessionSummary,
  Unsubscribe,
} from '../../src-shared/contract';

/**
 * The renderer's application model as the views see it. Everything here is framework-free:
 * stores hold immutable snapshots and notify subscribers; React reads them through the thin
 * hooks in `./hooks` (`useStore(store)`, `useSessionData(app, id)`, …). All of it is built once
 * in `./composition`; views receive it as the `app` prop and never reach the bridge any other way.
 *
 * View components mounted by the shell take `ViewProps`:
 *   BlocksView, DiagnosticsView, DiffView          – full-page views (tabs)
 *   FrontendToolsPrompt                             – shown above every view; renders nothing
 *                                                     unless the active session awaits tools
 *   ReplayControls                                  – in the session header of every view
 *
 * Editors: `import { CodeView, DiffEditor } from '../../editor/CodeView'` (lazy Monaco; see there).
 * Shared pieces: `components/EmptyState`, `components/Badge` (Badge, SeverityCounts); agent
 * colours and names: `model/agents` (labelAgents); number formats: `model/format`.
 */

/** A store: an immutable snapshot plus change notification (fits `useSyncExternalStore`). */
export interface ReadableStore<T> {
  /** Properties, not methods: they are passed around unbound (useSyncExternalStore). */
  readonly getSnapshot: () => T;
  readonly subscribe: (listener: () => void) => Unsubscribe;
}

export type ViewId = 'connect' | 'timeline' | 'blocks' | 'diagnostics' | 'diff';

export interface ViewProps {
  readonly app: AppModel;
}

// ─── Host ───────────────────────────────────────────────────────────────────────────────

export interface HostSnapshot {
  /** null until the first getAppInfo answered. */
  readonly info: AppInfo | null;
  readonly demo: DemoAgentInfo | null;
  /** The transport to main is up (browser host: the WebSocket is open). */
  readonly connected: boolean;
  /** Why the transport is down, for the banner. */
  readonly disconnectReason: string | null;
}

export type ThemeName = 'dark' | 'light';

// ─── Sessions ───────────────────────────────────────────────────────────────────────────

/** The parts of a session fetched only while a view shows them. */
export type SessionPart = 'blocks' | 'diagnostics';

export interface SessionsSnapshot {
  /** Newest first. */
  readonly list: readonly SessionSummary[];
  readonly activeId: string | null;
}

/**
 * What the renderer knows about one session. Rows are not in here (they live in the row cache
 * of `TimelineModel`); everything else arrives with the batches or is fetched when the session
 * is first shown. Arrays are replaced, never mutated, when they change.
 */
export interface SessionData {
  readonly id: string;
  readonly summary: SessionSummary;
  /** getSession; refreshed when legs, state or pending tools change. null until loaded. */
  readonly detail: SessionDetail | null;
  /** Envelopes known so far (= rows). */
  readonly total: number;
  readonly agents: readonly AgentInfoPayload[];
  /** Block summaries indexed by block id (holes while still loading are `undefined`); kept current only while watched. */
  readonly blocks: readonly (BlockSummary | undefined)[];
  /** Bumps whenever `blocks` changes (cheap change check for derived views). */
  readonly blocksVersion: number;
  /** Ordered by `seq`, no duplicates; kept current only while watched. */
  readonly diagnostics: readonly DiagnosticPayload[];
  readonly live: LiveStatus | null;
  readonly replay: ReplayState | null;
  /** The detail has been fetched once. */
  readonly loaded: boolean;
  /** `blocks` and `diagnostics` have been fetched once (they are fetched while a view shows them). */
  readonly blocksLoaded: boolean;
  readonly diagnosticsLoaded: boolean;
}

// ─── Selection and navigation ───────────────────────────────────────────────────────────

export interface ByteRange {
  readonly leg: number;
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

export interface SelectionSnapshot {
  /** The session the selection belongs to (always the active session, or null). */
  readonly sessionId: string | null;
  /** The focused row (its envelope is shown in the detail pane). */
  readonly row: number | null;
  /** Envelopes highlighted together, e.g. all envelopes of a block (sorted, may be empty). */
  readonly envelopes: readonly number[];
  /** The block the selection came from, when it came from one. */
  readonly block: number | null;
  /** Bytes to highlight in the raw view (a diagnostic's location). */
  readonly bytes: ByteRange | null;
  /** Bumps on every explicit reveal, so the timeline scrolls even when re-selecting a row. */
  readonly revealRevision: number;
}

export interface SelectOptions {
  /** Switch to the timeline and scroll the row into view (default true for selectRow/selectEnvelopes from other views). */
  readonly reveal?: boolean;
}

// ─── Errors ─────────────────────────────────────────────────────────────────────────────

export interface AppError {
  readonly id: number;
  /** What was being done ("Connect", "Open file", "Send tool results"…). */
  readonly context: string;
  readonly message: string;
  readonly sessionId?: string;
  readonly at: number;
  /** 'info' for confirmations ("Recording saved to …"); absent means an error. */
  readonly level?: 'error' | 'info';
}

// ─── The model ──────────────────────────────────────────────────────────────────────────

export interface AppModel {
  /** The contract client (the only way to reach main). Rejections carry user-facing messages. */
  readonly service: InspectorService;
  readonly host: ReadableStore<HostSnapshot>;
  readonly theme: ReadableStore<ThemeName>;
  readonly sessions: ReadableStore<SessionsSnapshot>;
  readonly selection: ReadableStore<SelectionSnapshot>;
  readonly view: ReadableStore<ViewId>;
  readonly errors: ReadableStore<readonly AppError[]>;

  /** The per-session store (created on first use; fetches the detail once). */
  session(id: string): ReadableStore<SessionData>;
  /** A view shows the session's blocks or findings: keeps them current until the returned function is called. */
  watchSession(id: string, part: SessionPart): () => void;
  /** Re-fetch a session's detail (e.g. after sending tool results). */
  refreshSession(id: string): Promise<void>;

  setActiveSession(id: string | null): void;
  navigate(view: ViewId): void;

  /** Focus one row of the active session; by default also opens the timeline and scrolls to it. */
  selectRow(seq: number, options?: SelectOptions): void;
  /** Highlight a set of envelopes (e.g. a block's); focuses the first one. */
  selectEnvelopes(seqs: readonly number[], options?: SelectOptions & { block?: number }): void;
  /** Highlight bytes in the raw-bytes pane (call after or together with selectRow). */
  highlightBytes(leg: number, start: number, end: number): void;
  clearSelection(): void;

  /** Show an error in place (banner); rejections of commands should end up here, never swallowed. */
  reportError(context: string, error: unknown, sessionId?: string): void;
  dismissError(id: number): void;
  /** Dismisses these errors at once ("Dismiss all"). */
  dismissErrors(ids: readonly number[]): void;
  /**
   * Runs a command and reports its failure under `context`; resolves to undefined on failure.
   * `app.run('Send tool results', () => app.service.sendToolResults(req))`.
   */
  run<T>(context: string, action: () => Promise<T>, sessionId?: string): Promise<T | undefined>;
}
