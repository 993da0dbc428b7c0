import type {
  ConnectRequest,
  DownloadFile,
  DownloadKind,
  EnvironmentInput,
  EnvironmentsState,
  HostCommand,
  InspectorService,
  OpenUploadRequest,
  ProxyStartRequest,
  ProxyState,
  RecentSessions,
  ResolveRequestInput,
  SampleInfo,
  SavedRequest,
  SessionSummary,
} from '../../src-shared/contract';
import { FAILURE_KINDS, type FailureKind } from '../../src-shared/contract/failure-kinds';
import type { BridgeStatus } from '../bridge/client';
import { demoForm, deserializeForm, emptyForm, requestToCurl, serializeForm, type ConnectForm } from '../model/connect-form';
import { copyName, defaultRequestName, formFromSaved, formToTemplate, templateFromCurl } from '../model/requests';
import { DEFAULT_COLUMN_PREFS, readColumnPrefs, type ColumnPrefs } from '../model/columns';
import { ErrorsModel } from '../model/errors';
import { formatBytes } from '../model/format';
import type { FrameScheduler } from '../model/scheduler';
import { SelectionModel } from '../model/selection';
import { SessionsModel } from '../model/sessions';
import { createStore, type Store } from '../model/store';
import type { TimelineModel } from '../model/timeline';
import type { AppModel, HostSnapshot, ReadableStore, ThemeName, ViewId } from './types';

/** Key/value persistence (localStorage in the browser, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface AppDeps {
  readonly service: InspectorService;
  readonly bridgeKind: 'electron' | 'browser';
  readonly bridgeStatus: ReadableStore<BridgeStatus>;
  readonly scheduler: FrameScheduler;
  readonly theme: ReadableStore<ThemeName>;
  readonly storage: KeyValueStorage;
  readonly now: () => number;
  /** Start a demo-agent session when main has none (a newcomer sees a live stream at once). */
  readonly autoConnectDemo?: boolean;
  /** Hands a file to the browser as a download (hosts without a save dialog). */
  readonly download?: (file: DownloadFile) => void;
}

export type TimelineMode = 'table' | 'lanes';
export type DetailTab = 'envelope' | 'bytes' | 'frame' | 'block';

/** UI preferences remembered between runs. */
export interface Prefs {
  readonly timelineMode: TimelineMode;
  readonly detailTab: DetailTab;
  readonly detailOpen: boolean;
  /** Width of the detail pane in pixels. */
  readonly detailWidth: number;
  /** The timeline table's chosen columns and their widths. */
  readonly columns: ColumnPrefs;
  /** The one-line introduction above a demo run was dismissed. */
  readonly introDismissed: boolean;
}

const DEFAULT_PREFS: Prefs = { timelineMode: 'table', detailTab: 'envelope', detailOpen: true, detailWidth: 440, columns: DEFAULT_COLUMN_PREFS, introDismissed: false };

/** What the shell and the timeline need beyond the shared AppModel. */
export interface RendererApp extends AppModel {
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
  openUpload(request: OpenUploadRequest): Promise<SessionSummary | undefined>;
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
  /** The saved requests of the sidebar's collection, in main's user-data folder. */
  readonly requests: ReadableStore<readonly SavedRequest[]>;
  /** The environments (secret values never here: only whether each has one) and how secrets are kept. */
  readonly environments: ReadableStore<EnvironmentsState | null>;
  /** The environments editor is open. */
  readonly environmentsOpen: Store<boolean>;
  /** Live sessions of earlier runs, kept as recordings; null until loaded. */
  readonly recentSessions: ReadableStore<RecentSessions | null>;
  /** Saves the connect form: over the saved request it came from, or (asNew, or none) as a new one. */
  saveFormAsRequest(asNew?: boolean): Promise<SavedRequest | undefined>;
  /** Shows a saved request in the connect form. */
  openRequest(id: string): void;
  /** Connects with a saved request (its name names the session). */
  runRequest(id: string): Promise<SessionSummary | undefined>;
  renameRequest(id: string, name: string): Promise<boolean>;
  duplicateRequest(id: string): Promise<SavedRequest | undefined>;
  deleteRequest(id: string): Promise<void>;
  /** A saved request as a curl command: `{{variables}}` kept, filled with secrets masked, or filled whole. */
  requestAsCurl(id: string, mode: ResolveRequestInput['mode']): Promise<string | undefined>;
  /** Saves a pasted curl command as a new request of the collection. */
  importCurl(command: string): Promise<SavedRequest | undefined>;
  saveEnvironment(input: EnvironmentInput): Promise<boolean>;
  deleteEnvironment(id: string): Promise<void>;
  setActiveEnvironment(id: string | null): Promise<void>;
  openRecentSession(id: string): Promise<SessionSummary | undefined>;
  setRecentSessionsKeep(keep: number): Promise<void>;
  refreshRecentSessions(): Promise<void>;
  /** A confirmation that dismisses itself ("Copied", "Saved to …"). */
  notify(context: string, message: string, sessionId?: string): void;
  /** Subscribes to main's events and loads the initial state; returns the teardown. */
  start(): () => void;
}

/** The detail pane opens when the user selects a row (it stays closed while the arrow keys move). */
export function withDetailOpen(prefs: Prefs): Prefs {
  return prefs.detailOpen ? prefs : { ...prefs, detailOpen: true };
}

const NOTICE_MS = 6000;
const FORM_KEY = 'asi.connectForm';
const PREFS_KEY = 'asi.prefs';

/**
 * The composition root: every store and model of the renderer is built here, once, from the
 * bridge's service and the browser's scheduler, theme and storage (or test doubles of them).
 */
export function createApp(deps: AppDeps): RendererApp {
  const { service, scheduler } = deps;
  const errors = new ErrorsModel(deps.now);
  const reportError = (context: string, error: unknown, sessionId?: string): void => {
    errors.report(context, error, sessionId);
  };
  const sessions = new SessionsModel({ service, scheduler, reportError });
  const selection = new SelectionModel();
  const view = createStore<ViewId>('connect');
  const recentFiles = createStore<readonly string[]>([]);
  const proxy = createStore<ProxyState | null>(null);
  const samples = createStore<readonly SampleInfo[]>([]);
  const helpOpen = createStore(false);
  const requests = createStore<readonly SavedRequest[]>([]);
  const environments = createStore<EnvironmentsState | null>(null);
  const environmentsOpen = createStore(false);
  const recentSessions = createStore<RecentSessions | null>(null);
  const host = createStore<HostSnapshot>({ info: null, demo: null, connected: deps.bridgeStatus.getSnapshot().connected, disconnectReason: deps.bridgeStatus.getSnapshot().reason });

  const storedForm = deserializeForm(deps.storage.getItem(FORM_KEY));
  const connectForm = createStore<ConnectForm>(storedForm ?? emptyForm());
  const storedPrefs = readJson<Partial<Prefs>>(deps.storage.getItem(PREFS_KEY));
  const prefs = createStore<Prefs>({ ...DEFAULT_PREFS, ...storedPrefs, columns: readColumnPrefs(storedPrefs?.columns) });
  connectForm.subscribe(() => persist(FORM_KEY, serializeForm(connectForm.getSnapshot())));
  prefs.subscribe(() => persist(PREFS_KEY, JSON.stringify(prefs.getSnapshot())));

  /** Main's save dialog where the host has one; otherwise main builds the file and the page downloads it. */
  async function saveAs(sessionId: string, kind: DownloadKind): Promise<void> {
    const context = kind === 'recording' ? 'Save recording' : 'Export';
    const dialogs = host.getSnapshot().info?.capabilities.fileDialogs ?? deps.bridgeKind === 'electron';
    if (!dialogs) {
      const file = await run(context, () => service.downloadSession({ sessionId, kind }), sessionId);
      if (!file) return;
      if (!deps.download) {
        reportError(context, new Error('This window cannot start downloads.'), sessionId);
        return;
      }
      deps.download(file);
      notify(kind === 'recording' ? 'Saved' : 'Exported', `${file.fileName} (${formatBytes(file.bytes)}) is downloading.`, sessionId);
      return;
    }
    const saved = await run(context, () => (kind === 'recording' ? service.saveRecording({ sessionId }) : service.exportSession({ sessionId, kind })), sessionId);
    if (saved) notify(kind === 'recording' ? 'Saved' : 'Exported', `${kind === 'recording' ? 'Recording saved to ' : ''}${saved.path} (${formatBytes(saved.bytes)})`, sessionId);
  }

  function persist(key: string, value: string): void {
    try {
      deps.storage.setItem(key, value);
    } catch {
      // Storage full or disabled: the form simply is not remembered.
    }
  }

  /** A confirmation shown like an error but dismissed by itself after a few seconds. */
  function notify(context: string, message: string, sessionId?: string): void {
    const entry = errors.report(context, message, sessionId, 'info');
    scheduler.after(NOTICE_MS, () => errors.dismiss(entry.id));
  }

  async function run<T>(context: string, action: () => Promise<T>, sessionId?: string): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      reportError(context, error, sessionId);
      return undefined;
    }
  }

  const setActiveSession = (id: string | null): void => {
    sessions.setActive(id);
    selection.setSession(id);
  };

  const activate = (summary: SessionSummary | null | undefined, target: ViewId = 'timeline'): SessionSummary | undefined => {
    if (!summary) return undefined;
    sessions.upsert(summary);
    setActiveSession(summary.id);
    view.set(target);
    return summary;
  };

  const activeId = (): string | null => sessions.list.getSnapshot().activeId;

  const savedRequest = (id: string): SavedRequest => {
    const found = requests.getSnapshot().find((r) => r.id === id);
    if (!found) throw new Error('That saved request is gone (deleted in another window?).');
    return found;
  };
  /** Runs a command that changes the collection, then shows main's list. */
  async function changeRequests<T>(context: string, action: () => Promise<T>): Promise<T | undefined> {
    const result = await run(context, action);
    const list = await run('Saved requests', () => service.listRequests());
    if (list) requests.set(list);
    return result;
  }
  async function changeEnvironments(context: string, action: () => Promise<EnvironmentsState>): Promise<boolean> {
    const state = await run(context, action);
    if (state) environments.set(state);
    return state !== undefined;
  }
  /** Ended live sessions seen: when it grows, main has kept (or is keeping) one more recent session. */
  let endedLive = 0;
  function watchEndedSessions(list: readonly SessionSummary[]): void {
    const ended = list.filter((s) => s.source.kind === 'live' && s.end !== undefined).length;
    if (ended > endedLive) scheduler.after(400, () => void app.refreshRecentSessions());
    endedLive = ended;
  }

  const app: RendererApp = {
    service,
    bridgeKind: deps.bridgeKind,
    host,
    theme: deps.theme,
    sessions: sessions.list,
    selection: selection.store,
    view,
    errors: errors.store,
    connectForm,
    recentFiles,
    proxy,
    samples,
    prefs,
    helpOpen,

    session: (id) => sessions.data(id),
    watchSession: (id, part) => sessions.watch(id, part),
    timeline: (id) => sessions.timeline(id),
    refreshSession: (id) => sessions.refresh(id),
    setActiveSession,
    navigate: (next) => view.set(next),

    selectRow(seq, options) {
      selection.selectRow(seq, options?.reveal ?? true);
      if (options?.reveal ?? true) {
        view.set('timeline');
        prefs.update(withDetailOpen);
      }
    },
    selectEnvelopes(seqs, options) {
      selection.selectEnvelopes(seqs, options?.block ?? null, options?.reveal ?? true);
      if (options?.reveal ?? true) view.set('timeline');
    },
    highlightBytes(leg, start, end) {
      selection.highlightBytes({ leg, start, end });
      prefs.update((p) => ({ ...p, detailOpen: true, detailTab: 'bytes' }));
    },
    clearSelection: () => selection.clear(),

    reportError,
    notify,
    dismissError: (id) => errors.dismiss(id),
    dismissErrors: (ids) => {
      for (const id of ids) errors.dismiss(id);
    },
    run,

    async connect(request) {
      return activate(await run('Connect', () => service.connect(request)));
    },
    async openPath(path) {
      const summary = activate(await run('Open file', () => service.openFile({ path })));
      void app.refreshRecentFiles();
      return summary;
    },
    async openUpload(request) {
      return activate(await run(`Open ${request.name}`, () => service.openUpload(request)));
    },
    async openSample(id) {
      const opened = await run('Open sample', () => service.openSample({ id }));
      for (const summary of opened ?? []) sessions.upsert(summary);
      return activate(opened?.[0]);
    },
    async showOpenDialog() {
      const summary = activate(await run('Open file', () => service.showOpenDialog()));
      void app.refreshRecentFiles();
      return summary;
    },
    async refreshRecentFiles() {
      const list = await run('Recent files', () => service.listRecentFiles());
      if (list) recentFiles.set(list);
    },
    async stop(sessionId) {
      await run('Stop', () => service.stop({ sessionId }), sessionId);
    },
    async closeSession(sessionId) {
      await run('Close session', () => service.closeSession({ sessionId }), sessionId);
      if (activeId() === sessionId) setActiveSession(null);
    },
    async startProxy(request) {
      const state = await run('Start the proxy', () => service.startProxy(request));
      if (state) proxy.set(state);
      return state;
    },
    async stopProxy() {
      await run('Stop the proxy', () => service.stopProxy());
    },
    saveRecording: (sessionId) => saveAs(sessionId, 'recording'),
    exportSession: saveAs,

    requests,
    environments,
    environmentsOpen,
    recentSessions,
    async saveFormAsRequest(asNew = false) {
      const form = connectForm.getSnapshot();
      const result = formToTemplate(form);
      if (!result.ok) {
        reportError('Save request', Object.values(result.errors)[0] ?? 'The form is incomplete.');
        return undefined;
      }
      const existing = !asNew && form.savedId !== null ? requests.getSnapshot().find((r) => r.id === form.savedId) : undefined;
      const name = existing?.name ?? defaultRequestName(result.template, form.title);
      const saved = await changeRequests('Save request', () => service.saveRequest({ ...(existing ? { id: existing.id } : {}), name, request: result.template }));
      if (saved) {
        connectForm.update((f) => ({ ...f, savedId: saved.id }));
        notify('Saved', `"${saved.name}" is in Requests.`);
      }
      return saved;
    },
    openRequest(id) {
      const found = requests.getSnapshot().find((r) => r.id === id);
      if (!found) {
        reportError('Open request', 'That saved request is gone (deleted in another window?).');
        return;
      }
      connectForm.set(formFromSaved(found));
      view.set('connect');
    },
    async runRequest(id) {
      const found = await run('Run request', () => Promise.resolve(savedRequest(id)));
      return found ? app.connect({ ...found.request, title: found.name }) : undefined;
    },
    async renameRequest(id, name) {
      const saved = await changeRequests('Rename request', async () => service.saveRequest({ id, name, request: savedRequest(id).request }));
      return saved !== undefined;
    },
    duplicateRequest: (id) =>
      changeRequests('Duplicate request', async () => {
        const original = savedRequest(id);
        return service.saveRequest({ name: copyName(original.name, requests.getSnapshot().map((r) => r.name)), request: original.request });
      }),
    async deleteRequest(id) {
      await changeRequests('Delete request', () => service.deleteRequest({ id }));
      if (connectForm.getSnapshot().savedId === id) connectForm.update((f) => ({ ...f, savedId: null }));
    },
    async requestAsCurl(id, mode) {
      const resolved = await run('Copy as curl', async () => service.resolveRequest({ request: savedRequest(id).request, mode }));
      return resolved ? requestToCurl(resolved) : undefined;
    },
    importCurl: (command) =>
      changeRequests('Import curl', async () => {
        const template = templateFromCurl(command);
        return service.saveRequest({ name: defaultRequestName(template), request: template });
      }),
    saveEnvironment: (input) => changeEnvironments('Save environment', () => service.saveEnvironment(input)),
    async deleteEnvironment(id) {
      await changeEnvironments('Delete environment', () => service.deleteEnvironment({ id }));
    },
    async setActiveEnvironment(id) {
      await changeEnvironments('Environment', () => service.setActiveEnvironment({ id }));
    },
    async openRecentSession(id) {
      return activate(await run('Open recent session', () => service.openRecentSession({ id })));
    },
    async setRecentSessionsKeep(keep) {
      const state = await run('Recent sessions', () => service.setRecentSessionsKeep({ keep }));
      if (state) recentSessions.set(state);
    },
    async refreshRecentSessions() {
      const state = await run('Recent sessions', () => service.listRecentSessions());
      if (state) recentSessions.set(state);
    },

    start() {
      const unsubscribers = [
        deps.bridgeStatus.subscribe(() => {
          const status = deps.bridgeStatus.getSnapshot();
          host.update((h) => ({ ...h, connected: status.connected, disconnectReason: status.reason }));
        }),
        service.onSessionsChanged((list) => {
          sessions.applySessionsChanged(list);
          watchEndedSessions(list);
        }),
        service.onSessionBatch((batch) => sessions.receiveBatch(batch)),
        service.onLiveStatus((status) => sessions.applyLiveStatus(status)),
        service.onReplayState((state) => sessions.applyReplayState(state)),
        service.onError((event) => errors.report(errorContext(event.kind), event.message, event.sessionId)),
        service.onHostCommand((command) => handleHostCommand(command)),
        service.onProxyChanged((state) => proxy.set(state)),
      ];
      void loadInitialState();
      return () => {
        for (const unsubscribe of unsubscribers) unsubscribe();
      };
    },
  };

  async function loadInitialState(): Promise<void> {
    const [info, demo, list, sampleList, proxyState] = await Promise.all([
      run('Connect to the inspector', () => service.getAppInfo()),
      run('Demo agent', () => service.getDemoAgent()),
      run('List sessions', () => service.listSessions()),
      run('Samples', () => service.listSamples()),
      run('Proxy', () => service.getProxy()),
    ]);
    if (proxyState !== undefined) proxy.set(proxyState);
    void loadWorkspace();
    host.update((h) => ({ ...h, info: info ?? h.info, demo: demo ?? null }));
    if (sampleList) samples.set(sampleList);
    if (demo && !storedForm) connectForm.set(demoForm(demo));
    if (list) {
      sessions.applySessionsChanged(list);
      const newest = sessions.list.getSnapshot().list[0];
      if (newest && activeId() === null) {
        setActiveSession(newest.id);
        view.set('timeline');
      } else if (!newest && demo && deps.autoConnectDemo) {
        await app.connect(demo.defaultRequest);
      }
    }
    void app.refreshRecentFiles();
  }

  /** Saved requests, environments and recent sessions: each shown as soon as it is there. */
  async function loadWorkspace(): Promise<void> {
    await Promise.all([
      run('Saved requests', () => service.listRequests()).then((list) => list && requests.set(list)),
      run('Environments', () => service.listEnvironments()).then((state) => state && environments.set(state)),
      app.refreshRecentSessions(),
    ]);
  }

  function handleHostCommand(command: HostCommand): void {
    const current = activeId();
    switch (command.kind) {
      case 'select-session':
        setActiveSession(command.sessionId);
        view.set('timeline');
        return;
      case 'connect':
        view.set('connect');
        return;
      case 'save-recording':
        if (current) void app.saveRecording(current);
        else reportError('Save recording', 'Open or start a session first.');
        return;
      case 'export':
        if (current) void app.exportSession(current, command.exportKind);
        else reportError('Export', 'Open or start a session first.');
        return;
      case 'replay':
        if (current) void run('Replay', async () => activate(await service.startReplay({ sessionId: current })), current);
        else reportError('Replay', 'Open or start a session first.');
        return;
    }
  }

  return app;
}

/** A heading for each kind of failure main reports. */
export function errorContext(kind: FailureKind): string {
  return FAILURE_KINDS[kind].heading;
}

function readJson<T>(text: string | null): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
