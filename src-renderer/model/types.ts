import type {
  AgentInfoPayload,
  AppInfo,
  BlockSummary,
  DemoAgentInfo,
  DiagnosticPayload,
  InspectorService,
  LiveStatus,
  ConnectRequest,
  DownloadKind,
  FormatChoice,
  ProxyStartRequest,
  ProxyState,
  ReplayState,
  SampleInfo,
  SessionDetail,
  SessionSummary,
  TaskProgress,
  Unsubscribe,
} from '../../src-shared/contract';
import type { UploadFile } from '../../src-shared/contract/upload-sender';
import type { ConnectForm } from './connect-form';
import type { Prefs } from './preferences';
import type { SessionCommands } from './session-commands';
import type { Store } from './store';
import type { TimelineModel } from './timeline';
import type { WorkspaceModel } from './workspace';

/**
 * The renderer's application model as the views see it. Everything here is framework-free:
 * stores hold immutable snapshots and notify subscribers; React reads them through the thin
 * hooks in `./hooks` (`useStore(store)`, `useSessionData(app, id)`, …). All of it is built once
 * in `app/composition`; views receive it as the `app` prop and never reach the bridge any other way:
 * what they may ask of main is `commands(sessionId)` and the app's own methods.
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
  /** The running open, upload or export (main's onProgress); its last event has `done`. */
  readonly progress: TaskProgress | null;
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
  /** What a view may ask of one session (its envelopes, bytes, blocks, replay, tool answers). Rejections carry user-facing messages. */
  commands(sessionId: string): SessionCommands;
  /** Opens a link in the user's browser (main asks first where the host can). */
  openExternal(url: string): Promise<boolean>;
  diffSessions(request: Parameters<InspectorService['diffSessions']>[0]): ReturnType<InspectorService['diffSessions']>;
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
   * `app.run('Send tool results', () => app.commands(id).sendToolResults(req))`.
   */
  run<T>(context: string, action: () => Promise<T>, sessionId?: string): Promise<T | undefined>;
}

/** What the shell and the timeline need beyond the shared AppModel. */
export interface RendererApp extends AppModel, Omit<WorkspaceModel, 'load'> {
  readonly bridgeKind: 'electron' | 'browser';
  readonly connectForm: Store<ConnectForm>;
  readonly recentFiles: ReadableStore<readonly string[]>;
  /** The sample recordings the host ships (File → Open Sample). */
  readonly samples: ReadableStore<readonly SampleInfo[]>;
  readonly prefs: Store<Prefs>;
  readonly helpOpen: Store<boolean>;
  /** The recording proxy (null when it is not running), kept current from main. */
  readonly proxy: ReadableStore<ProxyState | null>;
  timeline(sessionId: string): TimelineModel;
  /** Starts a live session, makes it active and shows its timeline. */
  connect(request: ConnectRequest): Promise<SessionSummary | undefined>;
  openPath(path: string): Promise<SessionSummary | undefined>;
  /** Streams a picked file to main and opens it as it arrives; resolves once the session opened. */
  openUpload(file: UploadFile): Promise<SessionSummary | undefined>;
  /** Opens the chosen entries of a HAR that waits for a choice, in order, as its session's legs. */
  openHarEntries(sessionId: string, entries: readonly number[]): Promise<SessionSummary | undefined>;
  /** Decodes a file session again as another dialect (`auto`: detected); the new session takes its place in the current view. */
  decodeAgainAs(sessionId: string, format: FormatChoice): Promise<SessionSummary | undefined>;
  /** Opens a shipped sample (a pair opens as two sessions) and shows the first. */
  openSample(id: string): Promise<SessionSummary | undefined>;
  showOpenDialog(): Promise<SessionSummary | undefined>;
  refreshRecentFiles(): Promise<void>;
  stop(sessionId: string): Promise<void>;
  closeSession(sessionId: string): Promise<void>;
  /** Saves the session as a recording: main's save dialog (Electron) or a download (browser host). */
  saveRecording(sessionId: string): Promise<void>;
  /** Starts the recording proxy; its sessions appear in the list as their streams begin. */
  startProxy(request: ProxyStartRequest): Promise<ProxyState | undefined>;
  stopProxy(): Promise<void>;
  /** Exports the session (or saves it, for `recording`): a save dialog or a download, as saving. */
  exportSession(sessionId: string, kind: DownloadKind): Promise<void>;
  openRecentSession(id: string): Promise<SessionSummary | undefined>;
  /** A confirmation that dismisses itself ("Copied", "Saved to …"). */
  notify(context: string, message: string, sessionId?: string): void;
  /** Subscribes to main's events and loads the initial state; returns the teardown. */
  start(): () => void;
}
