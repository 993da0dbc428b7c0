import type {
  DownloadFile,
  DownloadKind,
  HostCommand,
  InspectorService,
  ProxyState,
  SampleInfo,
  SessionSummary,
} from '../../src-shared/contract';
import { exportCaveat } from '../../src-shared/export/formats';
import { FAILURE_KINDS, type FailureKind } from '../../src-shared/contract/failure-kinds';
import type { BridgeStatus } from '../bridge/client';
import { demoForm, deserializeForm, emptyForm, serializeForm, type ConnectForm } from '../model/connect-form';
import { ErrorsModel } from '../model/errors';
import { formatBytes } from '../model/format';
import { chosenTheme, createPrefsStore, persist, withDetailOpen, type KeyValueStorage } from '../model/preferences';
import type { FrameScheduler } from '../model/scheduler';
import { SelectionModel } from '../model/selection';
import { sessionCommands } from '../model/session-commands';
import { SessionsModel } from '../model/sessions';
import { createStore } from '../model/store';
import type { HostSnapshot, ReadableStore, RendererApp, ThemeName, ViewId } from '../model/types';
import { createWorkspace } from '../model/workspace';
import { routeHostCommand } from './host-commands';
import { startUpload } from '../../src-shared/contract/upload-sender';

export interface AppDeps {
  readonly service: InspectorService;
  readonly bridgeKind: 'electron' | 'browser';
  readonly bridgeStatus: ReadableStore<BridgeStatus>;
  readonly scheduler: FrameScheduler;
  /** The system's colour scheme; the app shows it unless the user chose light or dark (prefs). */
  readonly systemTheme: ReadableStore<ThemeName>;
  readonly storage: KeyValueStorage;
  readonly now: () => number;
  /** Start a demo-agent session when main has none (a newcomer sees a live stream at once). */
  readonly autoConnectDemo?: boolean;
  /** Hands a file to the browser as a download (hosts without a save dialog). */
  readonly download?: (file: DownloadFile) => void;
}

const NOTICE_MS = 6000;
const FORM_KEY = 'asi.connectForm';

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
  const host = createStore<HostSnapshot>({
    info: null,
    demo: null,
    connected: deps.bridgeStatus.getSnapshot().connected,
    disconnectReason: deps.bridgeStatus.getSnapshot().reason,
  });

  const storedForm = deserializeForm(deps.storage.getItem(FORM_KEY));
  const connectForm = createStore<ConnectForm>(storedForm ?? emptyForm());
  const prefs = createPrefsStore(deps.storage);
  const theme = chosenTheme(prefs, deps.systemTheme);
  connectForm.subscribe(() => persist(deps.storage, FORM_KEY, serializeForm(connectForm.getSnapshot())));

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
      notify(
        kind === 'recording' ? 'Saved' : 'Exported',
        withCaveat(`${file.fileName} (${formatBytes(file.bytes)}) is downloading.`, kind),
        sessionId,
      );
      return;
    }
    const saved = await run(
      context,
      () => (kind === 'recording' ? service.saveRecording({ sessionId }) : service.exportSession({ sessionId, kind })),
      sessionId,
    );
    if (saved)
      notify(
        kind === 'recording' ? 'Saved' : 'Exported',
        withCaveat(
          `${kind === 'recording' ? 'Recording saved to ' : ''}${saved.path} (${formatBytes(saved.bytes)})`,
          kind,
        ),
        sessionId,
      );
  }

  /** An export's notice, followed by what the file cannot carry when it does not reopen as the same session. */
  function withCaveat(message: string, kind: DownloadKind): string {
    const caveat = exportCaveat(kind);
    return caveat ? `${message} ${caveat}` : message;
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
    if (id !== activeId()) errors.leaveActions();
    sessions.setActive(id);
    selection.setSession(id);
  };

  const activate = (
    summary: SessionSummary | null | undefined,
    target: ViewId = 'timeline',
  ): SessionSummary | undefined => {
    if (!summary) return undefined;
    sessions.upsert(summary);
    setActiveSession(summary.id);
    view.set(target);
    return summary;
  };

  const activeId = (): string | null => sessions.list.getSnapshot().activeId;

  const workspace = createWorkspace({
    service,
    connectForm,
    run: (context, action) => run(context, action),
    reportError: (context, error) => reportError(context, error),
    notify: (context, message) => notify(context, message),
    showConnect: () => view.set('connect'),
    connect: (request) => app.connect(request),
  });

  /** Ended live sessions seen: when it grows, main has kept (or is keeping) one more recent session. */
  let endedLive = 0;
  function watchEndedSessions(list: readonly SessionSummary[]): void {
    const ended = list.filter((s) => s.source.kind === 'live' && s.end !== undefined).length;
    if (ended > endedLive) scheduler.after(400, () => void app.refreshRecentSessions());
    endedLive = ended;
  }

  const { load: loadWorkspace, ...workspaceCommands } = workspace;
  const app: RendererApp = {
    ...workspaceCommands,
    commands: (sessionId) => sessionCommands(service, sessionId),
    openExternal: (url) => service.openExternal({ url }),
    diffSessions: (request) => service.diffSessions(request),
    bridgeKind: deps.bridgeKind,
    host,
    theme,
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
    async openUpload(file) {
      const upload = await run(`Open ${file.name}`, () => startUpload(service, file));
      if (!upload) return undefined;
      // The rest of the file keeps arriving behind the opened session; an upload cut short fails the session, which says why.
      return activate(await run(`Open ${file.name}`, () => upload.session));
    },
    async openHarEntries(sessionId, entries) {
      const summary = await run(
        'Open HAR entries',
        () => service.openHarEntries({ sessionId, entries: [...entries] }),
        sessionId,
      );
      return activate(summary);
    },
    async decodeAgainAs(sessionId, format) {
      const summary = await run('Decode as', () => service.decodeAgainAs({ sessionId, format }), sessionId);
      return activate(summary, view.getSnapshot());
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

    async openRecentSession(id) {
      return activate(await run('Open recent session', () => service.openRecentSession({ id })));
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
        service.onProgress((progress) => sessions.applyProgress(progress)),
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
        // The tour opens on the conversation it streams: its timeline is a column of delta
        // fragments ("The user wan", "ts a tour") that says little to a newcomer; the intro
        // line there points to the envelopes behind it.
        activate(await run('Connect', () => service.connect(demo.defaultRequest)), 'blocks');
      }
    }
    void app.refreshRecentFiles();
  }

  function handleHostCommand(command: HostCommand): void {
    routeHostCommand(command, {
      activeId,
      showSession(sessionId) {
        setActiveSession(sessionId);
        view.set('timeline');
      },
      showConnect: () => view.set('connect'),
      saveRecording: (sessionId) => void app.saveRecording(sessionId),
      exportSession: (sessionId, kind) => void app.exportSession(sessionId, kind),
      replay: (sessionId) =>
        void run('Replay', async () => activate(await service.startReplay({ sessionId })), sessionId),
      reportError: (context, error) => reportError(context, error),
    });
  }

  return app;
}

/** A heading for each kind of failure main reports. */
export function errorContext(kind: FailureKind): string {
  return FAILURE_KINDS[kind].heading;
}
