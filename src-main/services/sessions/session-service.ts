import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEmitter } from '../../../src-shared/contract/emitter';
import { BATCH_INTERVAL_MS, MAX_BATCH_ROWS, MAX_RAW_BYTES, type InspectorService } from '../../../src-shared/contract/inspector';
import type {
  ConnectRequest,
  DemoAgentInfo,
  ErrorEvent,
  Failure,
  LegEndInfo,
  LiveStatus,
  PendingTools,
  ProxyState,
  ReplayState,
  SessionBatch,
  SessionSummary,
  ToolResult,
} from '../../../src-shared/contract/payloads';
import { BREAKPOINT_TYPE_MAX, REPLAY_TYPES_MAX } from '../../../src-shared/contract/payloads';
import { diffSessions } from '../../../src-shared/diff/diff';
import { diffTranscript } from '../../../src-shared/diff/transcript';
import type { DiffInput } from '../../../src-shared/diff/types';
import { redactUrl } from '../../../src-shared/recording/redact';
import { maskSecrets } from '../../../src-shared/requests/variables';
import type { RecordedAction, RecordedRequest } from '../../../src-shared/recording/types';
import { consumerFailure, realTimers, wallClock, type Timers } from '../connection/connection';
import type { HttpTransport } from '../connection/http-transport';
import { buildRequest, type BuiltRequest } from '../connection/request-spec';
import type { ImportedSource, OpenSourceOptions } from '../importers/types';
import { createAnswerLedger, pendingSetKey, type AnswerLedger } from '../tool-results/answer-ledger';
import { buildToolResultsRequest, checkResults, defaultExtraBody, defaultToolResultsPath } from '../tool-results/tool-results';
import { createBatcher } from './batcher';
import { loadImportedSource, loadRecordingAsRead } from './sources/file-load';
import { endLegInSession, startLiveLeg, type LiveLeg, type LiveLegEnd } from './sources/live-leg';
import { createStatusTicker } from './sources/live-status';
import { RECORDING_FLUSH_MS, recordedOutcome, type RecorderFactory, type RecorderPort } from './recorder-port';
import { startRecordingProxy, type ExternalSession, type RecordingProxy } from '../proxy/proxy-sessions';
import { parseFilter } from '../../../src-shared/filter';
import type { ReplayClock } from '../replay/clock';
import { requestInFormat } from './sources/format-runs';
import { createReplaySession, sessionAsSource, type ReplaySession } from './sources/replay-session';
import { createSessionData, type LegKind, type SessionData } from './store/session-store';
import { downloadFile, exportSession, saveRecording } from './session-files';
import { liveSessionTitle } from './session-title';
import type { OpenSpool } from './store/spool-file';
import { demoScenarioOf } from './demo-agent-info';
import { STREAM_JSON_DEPTH, toBlockDetail, toDiagnosticPayload, toEnvelopeDetail, toPendingTools } from './store/views';
import { limitJsonDepth } from '../../../src-shared/json/tree';

/**
 * The session service: every source of bytes (live connections, their tool-results
 * continuations, opened files) decoded into sessions, and every session command of the
 * contract. Plain Node with its dependencies injected: Electron, the browser host, the CLI and
 * the tests all run this same object (in-process, or in a worker behind the same contract).
 */

/** Commands and events that depend on the host (native dialogs, shell, menus). */
export type HostKeys = 'getAppInfo' | 'showOpenDialog' | 'listRecentFiles' | 'openExternal' | 'listSamples' | 'openSample' | 'onHostCommand';
/** Commands over what the app keeps in the user-data folder (saved requests, environments, recent sessions): answered by the host. */
export type WorkspaceKeys =
  | 'listRequests'
  | 'saveRequest'
  | 'deleteRequest'
  | 'listEnvironments'
  | 'saveEnvironment'
  | 'deleteEnvironment'
  | 'setActiveEnvironment'
  | 'resolveRequest'
  | 'listRecentSessions'
  | 'openRecentSession'
  | 'setRecentSessionsKeep';
export type SessionService = Omit<InspectorService, HostKeys | WorkspaceKeys> & {
  /** Stops every connection, closes recordings, drops timers. */
  dispose(): Promise<void>;
  /**
   * Lets a session opened from a recording answer its pause against the live server, with
   * credentials the user supplies (recordings keep none): `stream-inspector answer FILE -H …`.
   * Not part of the contract: the renderer never hands main credentials for another origin.
   */
  attachRun(options: { sessionId: string; headers: [string, string][]; url?: string }): void;
  /**
   * Opens a file as the session `sessionId`: how a restarted session worker reloads the
   * sessions of the one that failed, under the ids the renderer knows.
   */
  reopen(options: ReopenRequest): Promise<SessionSummary>;
};

export interface ReopenRequest {
  sessionId: string;
  path: string;
  title: string;
  format?: ConnectRequest['format'];
}

export type OpenSource = (path: string, options?: OpenSourceOptions) => Promise<ImportedSource>;

export interface SessionServiceDeps {
  transport?: HttpTransport;
  now?: () => number;
  timers?: Timers;
  createRecorder?: RecorderFactory;
  openSource?: OpenSource;
  demoAgent?: () => DemoAgentInfo;
  /** Where uploaded files (browser host) are written before being opened. */
  uploadDir?: string;
  /**
   * Where live sessions the user does not record are spooled as recordings
   * (`spoolPath(spoolDir, id)`), so their bytes outlive the process that received them; each
   * spool file is deleted when its session closes. No spooling when absent.
   */
  spoolDir?: string;
  /** Reports a file the user opened (recent files). */
  onFileOpened?: (path: string) => void;
  /** Creates the spool files of live sessions (temp files by default; tests inject failing ones). */
  openSpool?: OpenSpool;
  batchIntervalMs?: number;
  statusIntervalMs?: number;
  /** The clock replays run on (tests inject a manual one). */
  replayClock?: ReplayClock;
}

/** Reconnect delay bounds for GET streams: the server's `retry` is honoured within these. */
export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 60_000;
const RECONNECT_DEFAULT_MS = 3000;

/** The spool recording of a live session (see SessionServiceDeps.spoolDir). */
export function spoolPath(spoolDir: string, sessionId: string): string {
  return join(spoolDir, `${sessionId}.recording`);
}

export function reconnectDelay(retry: number | null): number {
  return Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_MIN_MS, retry ?? RECONNECT_DEFAULT_MS));
}

/** The delay before a reconnect: the clamped `retry`, doubled for each attempt in a row that got no bytes. */
export function backoffDelay(retry: number | null, failuresInARow: number): number {
  return Math.min(RECONNECT_MAX_MS, reconnectDelay(retry) * 2 ** Math.min(failuresInARow, 16));
}

/**
 * A stream that ended or dropped is reopened, and so is one whose reconnect hit a network
 * error (as an EventSource does); an HTTP status — a 204 included — or a wrong Content-Type
 * ends it for good.
 */
const RECONNECTABLE_FAILURES: ReadonlySet<Failure['kind']> = new Set(['network', 'dns', 'timeout']);

/** Last-Event-ID goes out as UTF-8 bytes; Node writes a header string's characters as Latin-1 bytes. */
function utf8HeaderValue(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

interface Runtime {
  data: SessionData;
  recorder: RecorderPort | null;
  /** The run's request as sent (tool results and reconnects are derived from it). */
  run: RecordedRequest | null;
  runSpec: BuiltRequest | null;
  current: LiveLeg | null;
  /** `retry`: the last one the server sent; `failuresInARow`: attempts that got no bytes (for backoff). */
  reconnect: { attemptsLeft: number; timer: unknown; retry: number | null; failuresInARow: number } | null;
  ledger: AnswerLedger;
  actions: RecordedAction[];
  loading: boolean;
  closed: boolean;
  /** Settles when the current leg has been fully ended (state published, recording updated). */
  ending: Promise<void>;
  /** For replay sessions: the player. */
  replay: ReplaySession | null;
  /** The session's chunks are network chunks with receive times (live, recordings), not blocks of a file. */
  networkChunks: boolean;
  /** A file session given the credentials to answer its pause against the live server (CLI answer). */
  answerable: boolean;
  lastActivityAt: number;
  startedAt: number;
  /** Hides the environment's secret values in every request and action the session shows or records. */
  mask: (text: string) => string;
}

/** A synchronous command body as a contract command: what it throws becomes a rejection. */
function query<A, R>(fn: (arg: A) => R | Promise<R>): (arg: A) => Promise<R> {
  return (arg) => new Promise<R>((resolve) => resolve(fn(arg)));
}

export function createSessionService(deps: SessionServiceDeps = {}): SessionService {
  const now = deps.now ?? wallClock;
  const timers = deps.timers ?? realTimers;
  const connectionDeps = { ...(deps.transport ? { transport: deps.transport } : {}), now, timers };
  const sessions = new Map<string, Runtime>();

  const sessionsChanged = createEmitter<SessionSummary[]>();
  const batches = createEmitter<SessionBatch>();
  const liveStatus = createEmitter<LiveStatus>();
  const replayState = createEmitter<ReplayState>();
  const errors = createEmitter<ErrorEvent>();
  const proxyChanged = createEmitter<ProxyState | null>();
  let proxy: RecordingProxy | null = null;

  const batcher = createBatcher((batch) => batches.fire(batch), { timers, now, intervalMs: deps.batchIntervalMs ?? BATCH_INTERVAL_MS, maxRows: MAX_BATCH_ROWS });
  const statusIntervalMs = deps.statusIntervalMs ?? 250;
  const ticker = createStatusTicker((status) => liveStatus.fire(status), { timers, now, intervalMs: statusIntervalMs });

  const summaryOf = (rt: Runtime): SessionSummary => {
    const pending = rt.data.pendingTools();
    const answered = pending !== null && rt.ledger.state(pendingSetKey(pending.leg, pending.block.id)) === 'sent';
    const summary = rt.data.summary({ awaitingTools: pending !== null && !answered, answered });
    // The sidebar tells a paused replay from a playing one (it has no transport state).
    if (rt.replay && rt.data.state === 'streaming' && !rt.replay.state().playing) summary.replayPaused = true;
    return summary;
  };

  let announceQueued = false;
  let lastAnnounceAt = Number.NEGATIVE_INFINITY;
  let countsTimer: unknown = null;
  /** Announces the sessions list now (a state change: started, paused, ended, answered…). */
  const announce = (): void => {
    if (countsTimer !== null) timers.clearTimeout(countsTimer);
    countsTimer = null;
    if (announceQueued) return;
    announceQueued = true;
    queueMicrotask(() => {
      announceQueued = false;
      lastAnnounceAt = now();
      sessionsChanged.fire([...sessions.values()].map(summaryOf));
    });
  };
  /**
   * The list shows counts (envelopes, bytes, diagnostics) that move with every chunk of a live
   * session, a replay or a file being read: announce them at most once per status interval.
   */
  const announceCounts = (): void => {
    if (countsTimer !== null || announceQueued) return;
    countsTimer = timers.setTimeout(announce, Math.max(0, lastAnnounceAt + statusIntervalMs - now()));
  };

  const reportError = (sessionId: string | undefined, failure: Pick<Failure, 'kind' | 'message'>): void => {
    errors.fire({ ...(sessionId ? { sessionId } : {}), kind: failure.kind, message: failure.message, at: now() });
  };

  /** Where every session's spool files are created (tests inject failing ones). */
  const spooling = deps.openSpool ? { openSpool: deps.openSpool } : {};

  const runtimeOf = (sessionId: string): Runtime => {
    const rt = sessions.get(sessionId);
    if (!rt) throw new Error(`Unknown session '${sessionId}' (it may have been closed)`);
    return rt;
  };

  const register = (data: SessionData, init: Partial<Runtime>): Runtime => {
    const rt: Runtime = {
      data,
      recorder: null,
      run: null,
      runSpec: null,
      current: null,
      reconnect: null,
      ledger: createAnswerLedger(),
      actions: [],
      loading: false,
      closed: false,
      ending: Promise.resolve(),
      replay: null,
      networkChunks: true,
      answerable: false,
      lastActivityAt: now(),
      startedAt: now(),
      mask: unmasked,
      ...init,
    };
    data.onChange = () => {
      rt.lastActivityAt = now();
      announceCounts();
      batcher.schedule(rt.data);
    };
    sessions.set(data.id, rt);
    announce();
    return rt;
  };

  const newId = (): string => `s${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

  const track = (rt: Runtime): void => {
    ticker.track(rt.data.id, () => {
      const leg = rt.data.legs.at(-1);
      const probe = {
        state: rt.data.state,
        leg: leg?.index ?? 0,
        bytes: rt.data.legs.reduce((sum, l) => sum + l.raw.bytes, 0),
        envelopes: rt.data.envelopeCount,
        startedAt: rt.startedAt,
        lastActivityAt: rt.current ? rt.current.connection.progress().lastActivityAt : rt.lastActivityAt,
      };
      return leg?.response ? { ...probe, httpStatus: leg.response.status } : probe;
    });
  };

  /**
   * After a leg: finish the session unless it waits for tool results (a continuation may follow).
   * Returns why finishing failed: what it decodes last (the findings on blocks left open) could
   * not be kept (a spool file on a full disk), so the session cannot end complete.
   */
  const settleSession = async (rt: Runtime): Promise<Failure | undefined> => {
    batcher.flush(rt.data);
    if (rt.data.pendingTools() !== null || rt.reconnect?.timer) return undefined;
    let failure: Failure | undefined;
    try {
      rt.data.finish();
    } catch (error) {
      failure = consumerFailure(error);
    }
    batcher.flush(rt.data);
    const recorder = rt.recorder;
    rt.recorder = null;
    // A recording that failed was reported when it failed (onError); the session goes on.
    await Promise.resolve(recorder?.close()).catch(() => undefined);
    return failure;
  };

  /** A session's terminal state: `unfinished`, finishing it failed (see settleSession), so it did not end complete. */
  const endState = (reason: LegEndInfo['reason'], unfinished: Failure | undefined): SessionSummary['state'] =>
    unfinished ? 'failed' : reason === 'complete' ? 'complete' : reason === 'stopped' ? 'stopped' : 'failed';

  const runLeg = (rt: Runtime, kind: LegKind, request: BuiltRequest, onEnded?: (live: LiveLeg, end: LiveLegEnd) => void): LiveLeg => {
    const data = rt.data;
    data.state = 'connecting';
    data.failure = undefined;
    const shown = rt.mask === unmasked ? request : { spec: request.spec, recorded: maskRequest(request.recorded, rt.mask) };
    const live = startLiveLeg(data, kind, shown, rt.recorder, connectionDeps, {
      onResponse(accepted) {
        if (accepted) data.state = 'streaming';
        ticker.emitNow(data.id);
        announce();
      },
    });
    rt.current = live;
    track(rt);
    rt.ending = live.done.then((end) => {
      onEnded?.(live, end);
      return onLegEnded(rt, live, end);
    });
    return live;
  };

  const onLegEnded = async (rt: Runtime, live: LiveLeg, end: LiveLegEnd): Promise<void> => {
    if (rt.current === live) rt.current = null;
    const data = rt.data;
    const { reason } = end.outcome;
    if (end.failure) data.failure = end.failure;
    const reopenable = reason === 'complete' || reason === 'aborted' || (reason === 'failed' && end.failure !== undefined && RECONNECTABLE_FAILURES.has(end.failure.kind));
    const reconnecting = !rt.closed && reopenable && rt.reconnect !== null && rt.reconnect.attemptsLeft > 0 && rt.runSpec !== null;
    if (reconnecting) scheduleReconnect(rt, end.outcome.bytes);
    const unfinished = await settleSession(rt);
    data.failure ??= unfinished;
    // The terminal state is published last, once every row and block of the leg went out.
    if (!reconnecting) data.state = endState(reason, unfinished);
    ticker.untrack(data.id);
    if (end.failure) reportError(data.id, end.failure);
    if (unfinished) reportError(data.id, unfinished);
    announce();
  };

  const scheduleReconnect = (rt: Runtime, legBytes: number): void => {
    const reconnect = rt.reconnect;
    const spec = rt.runSpec;
    const leg = rt.data.legs.at(-1);
    if (!reconnect || !spec || !leg) return;
    reconnect.attemptsLeft -= 1;
    if (leg.retry !== null) reconnect.retry = leg.retry;
    reconnect.failuresInARow = legBytes > 0 ? 0 : reconnect.failuresInARow + 1;
    // The last event ID the stream set, whichever leg set it (an attempt that failed sets none).
    const lastEventId = [...rt.data.legs].reverse().find((l) => l.lastEventId !== '')?.lastEventId ?? '';
    rt.data.state = 'connecting';
    reconnect.timer = timers.setTimeout(() => {
      reconnect.timer = null;
      if (rt.closed) return;
      const without = (headers: [string, string][]): [string, string][] => headers.filter(([n]) => n.toLowerCase() !== 'last-event-id');
      const wire = without(spec.spec.headers);
      const recorded = without(spec.recorded.headers);
      if (lastEventId !== '') {
        wire.push(['Last-Event-ID', utf8HeaderValue(lastEventId)]);
        recorded.push(['Last-Event-ID', lastEventId]);
      }
      runLeg(rt, 'reconnect', { spec: { ...spec.spec, headers: wire }, recorded: { ...spec.recorded, headers: recorded } });
      announce();
    }, backoffDelay(reconnect.retry, reconnect.failuresInARow));
  };

  const pendingInfo = (rt: Runtime): PendingTools | null => {
    const pending = rt.data.pendingTools();
    if (!pending) return null;
    const run = rt.run;
    return {
      leg: pending.leg,
      block: pending.block.id,
      agentUuid: pending.agentUuid,
      tools: toPendingTools(pending.block.pendingTools ?? []),
      answered: rt.ledger.state(pendingSetKey(pending.leg, pending.block.id)),
      defaultPath: run ? defaultToolResultsPath(run.url) : '/agent/tool_results',
      defaultExtraBody: run ? defaultExtraBody(run.body) : {},
    };
  };

  /** `uploaded`: the file is the temporary copy of an upload named so: messages name the upload, not the copy. */
  const openSourceFile = async (path: string, options: { format?: ConnectRequest['format']; entry?: number; title?: string; id?: string; uploaded?: string; inline?: ConnectRequest['inline'] }): Promise<SessionSummary> => {
    if (!deps.openSource) throw new Error('Opening files is not available in this host');
    const absolute = resolve(path);
    let session: SessionData | null = null;
    const source = await deps
      .openSource(absolute, {
        ...(options.entry !== undefined ? { harEntry: options.entry } : {}),
        // A recording is decoded as it is read: its first rows come before the rest of the file is.
        stream: true,
        onDiagnostic: (d) => session?.addDiagnostics([d]),
      })
      .catch((error: unknown) => {
        if (options.uploaded === undefined || !(error instanceof Error)) throw error;
        throw new Error(error.message.replaceAll(absolute, options.uploaded));
      });
    const init = {
      id: options.id ?? newId(),
      title: options.title ?? basename(absolute),
      source: { kind: 'file' as const, path: absolute, importer: source.kind, ...(options.uploaded !== undefined ? { uploaded: true } : {}) },
      createdAt: now(),
      ...(options.format ? { format: options.format } : {}),
      ...(options.inline ? { inline: options.inline } : {}),
      // A recording's raw bytes are read back from it by offset, not copied.
      ...(source.kind === 'recording' ? { recording: absolute } : {}),
      ...spooling,
    };
    const data = createSessionData(init);
    data.addDiagnostics(source.diagnostics);
    session = data;
    data.state = 'loading';
    const rt = register(data, { loading: true, run: source.legs[0]?.request ?? null, networkChunks: source.kind === 'recording' });
    // A session reloaded under its old id is not a file the user opened.
    if (options.id === undefined) deps.onFileOpened?.(absolute);
    const loadOptions = { now, cancelled: () => rt.closed };
    /**
     * A recording whose records were not in the order a decoder can follow as they come
     * (interleaved legs) starts over, a new generation of the session, decoded from its index.
     */
    const startOver = (): SessionData => {
      const fresh = createSessionData({ ...init, generation: rt.data.generation + 1 });
      fresh.state = 'loading';
      fresh.onChange = rt.data.onChange;
      fresh.addDiagnostics(source.diagnostics);
      batcher.forget(init.id);
      rt.data.dispose();
      rt.data = session = fresh;
      fresh.onChange();
      return fresh;
    };
    const load = async (): Promise<void> => {
      if (source.readRecords && (await loadRecordingAsRead(rt.data, source, loadOptions))) return;
      if (rt.closed) return;
      await loadImportedSource(source.readRecords ? startOver() : rt.data, source, loadOptions);
    };
    void load()
      .then(() => {
        if (rt.closed) return;
        rt.run ??= rt.data.legs[0]?.request ?? null;
        rt.data.state = 'complete';
      })
      .catch((error: unknown) => {
        const failure: Failure = { kind: 'import', message: `Reading ${absolute} failed: ${error instanceof Error ? error.message : String(error)}` };
        rt.data.state = 'failed';
        rt.data.failure = failure;
        reportError(init.id, failure);
      })
      .finally(() => {
        rt.loading = false;
        if (rt.closed) return;
        const pending = rt.data.pendingTools();
        // A recording that sent the results of its last pause (and ends before the continuation) is not paused any more.
        const sent = pending !== null && source.actions.some((a) => a.kind === 'tool-results' && a.leg === pending.leg);
        if (sent) {
          const key = pendingSetKey(pending.leg, pending.block.id);
          rt.ledger.claim(key, {});
          rt.ledger.settle(key, 'sent', 'the recording holds their POST and ends before the continuation');
        }
        // A file that ends paused on frontend tools stays open for its answer (like a live session).
        if (pending === null || sent) rt.data.finish();
        batcher.flush(rt.data);
        announce();
      });
    return data.summary();
  };

  const startReplay = (source: Runtime, speed: number, instant: boolean, paused: boolean): SessionSummary => {
    if (source.current || source.loading) throw new Error('The session is still receiving; replay it once it has ended.');
    const init = { id: newId(), title: `Replay of ${source.data.title}`, source: { kind: 'replay' as const, of: source.data.id }, createdAt: now(), format: source.data.formatChoice, inline: source.data.inline(), ...spooling };
    const data = createSessionData(init);
    data.state = 'streaming';
    const rt = register(data, { run: source.run, networkChunks: source.networkChunks });
    const sourceData = source.data;
    let wasPlaying = false;
    const replay = createReplaySession({
      source: sessionAsSource(sourceData, source.actions),
      sourceId: sourceData.id,
      data: () => rt.data,
      reset: () => {
        const fresh = createSessionData({ ...init, generation: rt.data.generation + 1 });
        fresh.state = 'streaming';
        fresh.onChange = rt.data.onChange;
        rt.data = fresh;
        rt.ledger = createAnswerLedger();
        fresh.onChange();
      },
      onState: (state) => {
        if (state.finished && rt.data.state === 'streaming') {
          if (rt.data.pendingTools() === null) rt.data.finish();
          rt.data.state = 'complete';
        } else if (!state.finished && rt.data.state === 'complete') {
          rt.data.state = 'streaming';
        }
        // Stopped (paused, stepped, at a recorded prompt or breakpoint, ended): rows and list
        // show where, now; started again: the list says it plays.
        if (!state.playing) batcher.flush(rt.data);
        if (!state.playing || !wasPlaying) announce();
        wasPlaying = state.playing;
        replayState.fire(state);
      },
      total: sourceData.envelopeCount,
      envelopeEnd: (seq) => {
        const envelope = sourceData.envelope(seq);
        return envelope ? { leg: envelope.leg, byteEnd: envelope.byteEnd } : undefined;
      },
      networkChunks: source.networkChunks,
      speed,
      instant,
      paused,
      // A stream names its own types: only those a breakpoint can name are offered.
      types: sourceData
        .envelopeTypes()
        .filter((type) => type !== '' && type.length <= BREAKPOINT_TYPE_MAX)
        .slice(0, REPLAY_TYPES_MAX),
      ...(deps.replayClock ? { clock: deps.replayClock } : {}),
    });
    rt.replay = replay;
    return data.summary();
  };

  /** In a replay, answering checks the results and plays the recorded continuation. */
  const answerReplay = (rt: Runtime, pending: NonNullable<ReturnType<SessionData['pendingTools']>>, results: readonly ToolResult[]): { leg: number } => {
    const problem = checkResults(pending.block.pendingTools ?? [], results);
    if (problem) throw new Error(problem);
    const key = pendingSetKey(pending.leg, pending.block.id);
    rt.ledger.claim(key, {});
    rt.ledger.settle(key, 'sent', 'the recorded continuation plays');
    rt.replay?.continueAfterAnswer();
    announce();
    return { leg: pending.leg + 1 };
  };

  /**
   * A session fed from outside (the recording proxy): each leg's request, response head,
   * chunks and end are pushed as they pass, and recorded (secrets redacted) when `recordTo` is set.
   */
  const openExternalSession = async (init: { title: string; method: string; url: string; recordTo?: string }): Promise<ExternalSession> => {
    let recorder: RecorderPort | null = null;
    if (init.recordTo !== undefined) {
      if (!deps.createRecorder) throw new Error('Recording is not available in this host');
      const path = init.recordTo;
      recorder = await deps.createRecorder(path, {
        flushIntervalMs: RECORDING_FLUSH_MS,
        redact: true,
        onError: (error) => reportError(undefined, { kind: 'internal', message: `Recording to ${path} stopped: ${error.message}` }),
      });
    }
    const data = createSessionData({ id: newId(), title: init.title, source: { kind: 'live', method: init.method, url: redactUrl(init.url) }, createdAt: now(), ...spooling });
    if (init.recordTo !== undefined) data.recordingPath = init.recordTo;
    const rt = register(data, { recorder });
    return {
      id: data.id,
      waitingAgent: () => (rt.closed || data.finished ? null : (data.pendingTools()?.agentUuid ?? null)),
      startLeg(kind, request) {
        rt.run ??= request;
        const leg = data.openLeg(kind, request, now()).index;
        const recorderLeg = rt.recorder ? rt.recorder.startLeg(request) : -1;
        data.state = 'connecting';
        track(rt);
        announce();
        // The leg ends at the proxy's end, or at a chunk the session could not keep (a spool
        // file on a full disk): it failed there, and the proxy still forwards the rest.
        let ended = false;
        const endLeg = (end: LegEndInfo, failure?: Failure): void => {
          ended = true;
          const unkept = endLegInSession(data, leg, end, failure);
          const kept: LegEndInfo = unkept ? { reason: 'failed', message: unkept.message } : end;
          rt.recorder?.endLeg(recorderLeg, recordedOutcome(kept));
          rt.ending = settleSession(rt).then((unfinished) => {
            const why = failure ?? unkept ?? unfinished;
            data.failure ??= why;
            data.state = endState(kept.reason, why);
            ticker.untrack(data.id);
            if (why) reportError(data.id, why);
            announce();
          });
        };
        return {
          response(head) {
            data.setResponse(leg, head);
            rt.recorder?.response(recorderLeg, head);
            data.state = 'streaming';
            ticker.emitNow(data.id);
            announce();
          },
          chunk(bytes, receivedAt) {
            if (rt.closed || ended) return;
            rt.recorder?.chunk(recorderLeg, bytes, receivedAt);
            try {
              data.push(leg, bytes, receivedAt);
            } catch (error) {
              const failure = consumerFailure(error);
              endLeg({ reason: 'failed', message: failure.message }, failure);
            }
          },
          end(end) {
            if (rt.closed || ended) return;
            endLeg(end);
          },
        };
      },
    };
  };

  const service: SessionService = {
    getDemoAgent: () => Promise.resolve(deps.demoAgent?.() ?? null),

    async connect(request) {
      const secrets = request.secretValues ?? [];
      const mask = secrets.length === 0 ? unmasked : (text: string): string => maskSecrets(text, secrets);
      let built: BuiltRequest;
      try {
        built = buildRequest(request);
      } catch (error) {
        // A refusal quotes what it refuses (a URL, a header): never with a secret in it.
        throw new Error(mask(error instanceof Error ? error.message : String(error)));
      }
      let recorder: RecorderPort | null = null;
      let recordingPath: string | undefined;
      const id = newId();
      if (request.recordTo !== undefined) {
        if (!deps.createRecorder) throw new Error('Recording is not available in this host');
        recordingPath = resolve(request.recordTo);
        const path = recordingPath;
        recorder = await deps.createRecorder(path, {
          flushIntervalMs: RECORDING_FLUSH_MS,
          redact: true,
          onError: (error) => reportError(undefined, { kind: 'internal', message: `Recording to ${path} stopped: ${error.message}` }),
        });
      } else if (deps.spoolDir !== undefined && deps.createRecorder) {
        await mkdir(deps.spoolDir, { recursive: true, mode: 0o700 });
        // Spooling is a safety net: when it fails, the session runs on without it.
        recorder = await Promise.resolve(deps.createRecorder(spoolPath(deps.spoolDir, id), { flushIntervalMs: RECORDING_FLUSH_MS, redact: true })).catch(() => null);
      }
      const displayUrl = mask(redactUrl(built.spec.url.href));
      const demo = deps.demoAgent?.() ?? null;
      const data = createSessionData({
        id,
        title: request.title ?? titleOf(built, displayUrl, mask, demo),
        source: { kind: 'live', method: built.spec.method, url: displayUrl },
        createdAt: now(),
        ...(request.format ? { format: request.format } : {}),
        ...(request.inline ? { inline: request.inline } : {}),
        ...spooling,
      });
      if (recordingPath !== undefined) data.recordingPath = recordingPath;
      const rt = register(data, {
        recorder,
        run: built.recorded,
        runSpec: built,
        mask,
        reconnect: request.reconnect ? { attemptsLeft: request.reconnect.maxAttempts, timer: null, retry: null, failuresInARow: 0 } : null,
      });
      runLeg(rt, 'run', built);
      return data.summary();
    },

    async stop({ sessionId }) {
      const rt = runtimeOf(sessionId);
      if (rt.reconnect?.timer) {
        timers.clearTimeout(rt.reconnect.timer);
        rt.reconnect.timer = null;
        rt.reconnect.attemptsLeft = 0;
        rt.data.state = 'stopped';
        await settleSession(rt);
        announce();
      }
      if (rt.reconnect) rt.reconnect.attemptsLeft = 0;
      rt.current?.connection.stop();
      await rt.ending;
    },

    openFile: query(({ path, format, entry, title, inline }) => {
      return openSourceFile(path, { ...(format ? { format } : {}), ...(entry !== undefined ? { entry } : {}), ...(title ? { title } : {}), ...(inline ? { inline } : {}) });
    }),

    async openUpload({ name, base64, format, entry, inline }) {
      const bytes = Buffer.from(base64, 'base64');
      const dir = deps.uploadDir ?? join(tmpdir(), 'stream-inspector-uploads');
      await mkdir(dir, { recursive: true });
      const safe = basename(name).replace(/[^\w.-]+/g, '_').slice(-120) || 'upload';
      const path = join(dir, `${randomBytes(4).toString('hex')}-${safe}`);
      await writeFile(path, bytes, { flag: 'wx' });
      return openSourceFile(path, { ...(format ? { format } : {}), ...(entry !== undefined ? { entry } : {}), ...(inline ? { inline } : {}), title: name, uploaded: name });
    },

    async closeSession({ sessionId }) {
      const rt = sessions.get(sessionId);
      if (!rt) return;
      rt.closed = true;
      await rt.replay?.dispose();
      await service.stop({ sessionId });
      try {
        rt.data.finish();
      } catch {
        // What finishing writes last (the findings on blocks left open) could not be kept (a
        // full disk): the session goes away all the same.
      }
      await Promise.resolve(rt.recorder?.close()).catch(() => undefined);
      rt.recorder = null;
      rt.data.dispose();
      batcher.forget(sessionId);
      ticker.untrack(sessionId);
      sessions.delete(sessionId);
      if (deps.spoolDir !== undefined) await rm(spoolPath(deps.spoolDir, sessionId), { force: true });
      announce();
    },

    listSessions: () => Promise.resolve([...sessions.values()].map(summaryOf)),

    getSession: query(({ sessionId }) => {
      const rt = runtimeOf(sessionId);
      return rt.data.detail(pendingInfo(rt));
    }),

    getRows: query(({ sessionId, start, count }) => {
      const data = runtimeOf(sessionId).data;
      return { total: data.envelopeCount, start, rows: data.rows(start, count) };
    }),

    filterRows: query(({ sessionId, expression, max }) => {
      const data = runtimeOf(sessionId).data;
      return data.filter(parseFilter(expression), max ?? 10_000);
    }),

    getEnvelope: query(({ sessionId, seq }) => {
      const envelope = runtimeOf(sessionId).data.envelope(seq);
      if (!envelope) throw new Error(`Session ${sessionId} has no envelope ${seq}`);
      return toEnvelopeDetail(envelope);
    }),

    getFrame: query(({ sessionId, leg, seq }) => {
      const frame = runtimeOf(sessionId).data.frame(leg, seq);
      if (!frame) throw new Error(`Session ${sessionId} has no frame ${seq} in leg ${leg}`);
      return frame;
    }),

    getRawBytes: query(({ sessionId, leg, byteStart, byteEnd }) => {
      return runtimeOf(sessionId).data.rawBytes(leg, byteStart, byteEnd, MAX_RAW_BYTES);
    }),

    getBlocks: query(({ sessionId, agent }) => {
      const { data } = runtimeOf(sessionId);
      return data.blocks(agent).map((block) => data.blockSummary(block));
    }),

    getBlock: query(({ sessionId, block }) => {
      const { data } = runtimeOf(sessionId);
      const found = data.block(block);
      if (!found) throw new Error(`Session ${sessionId} has no block ${block}`);
      return toBlockDetail(found, data.inlineHeld(found));
    }),

    getDiagnostics: query(({ sessionId }) => {
      return runtimeOf(sessionId).data.diagnostics().map(toDiagnosticPayload);
    }),

    getBlockChanges: query(({ sessionId, since }) => runtimeOf(sessionId).data.blockChanges(since)),

    getDiagnosticsSince: query(({ sessionId, from, resets }) => runtimeOf(sessionId).data.diagnosticsSince(from, resets)),

    setInline: query(({ sessionId, inline }) => {
      const rt = runtimeOf(sessionId);
      rt.data.setInline(inline);
      announce();
      return summaryOf(rt);
    }),

    getStats: query(({ sessionId }) => {
      return runtimeOf(sessionId).data.stats();
    }),

    sendToolResults: query(({ sessionId, results, path, extraBody, resend, allowMismatch }) => {
      const rt = runtimeOf(sessionId);
      const data = rt.data;
      if (rt.current) throw new Error('The stream is still running; tool results can be sent once it pauses on awaiting_frontend_tools.');
      const pending = data.pendingTools();
      if (!pending) throw new Error('This session is not waiting for frontend tool results.');
      if (rt.replay) return answerReplay(rt, pending, results);
      if ((data.source.kind !== 'live' && !rt.answerable) || !rt.run) {
        throw new Error('This session was opened from a file, so there is no live run to answer. Replay it to play the recorded continuation, or use `stream-inspector answer FILE` with the credentials.');
      }
      if (!allowMismatch) {
        const problem = checkResults(pending.block.pendingTools ?? [], results);
        if (problem) throw new Error(problem);
      }
      const request = buildToolResultsRequest({
        run: rt.run,
        agentUuid: pending.agentUuid,
        results,
        ...(path !== undefined ? { path } : {}),
        ...(extraBody !== undefined ? { extraBody } : {}),
      });
      const key = pendingSetKey(pending.leg, pending.block.id);
      rt.ledger.claim(key, { resend: resend === true });
      const action: RecordedAction = { kind: 'tool-results', at: now(), leg: pending.leg, body: rt.mask(request.recorded.body ?? ''), url: rt.mask(request.recorded.url) };
      rt.actions.push(action);
      rt.recorder?.action(action);
      const live = runLeg(rt, 'tool-results', request, (ended, { outcome }) => {
        // Failed only if the server certainly did not continue the run; anything else counts as sent.
        if (!ended.accepted()) rt.ledger.settle(key, 'failed', outcome.failure?.message ?? `the server answered ${outcome.status ?? 'nothing'}`);
        else if (firstContentIsErrorFrame(data, ended.leg)) rt.ledger.settle(key, 'failed', 'the server answered with an error frame');
        else rt.ledger.settle(key, 'sent', `the continuation is leg ${ended.leg}`);
      });
      announce();
      return { leg: live.leg };
    }),

    diffSessions: query(({ left, right, flattenAgents }) => {
      const sides = [runtimeOf(left), runtimeOf(right)].map((rt) => {
        if (rt.current || rt.loading) throw new Error(`Session "${rt.data.title}" is still receiving; diff it once it has ended.`);
        return rt.data.diffInput();
      });
      const diff = diffSessions(sides[0] as DiffInput, sides[1] as DiffInput, flattenAgents === undefined ? {} : { flattenAgents });
      // The diff holds values parsed from both streams: bounded like every other payload.
      return { diff: limitJsonDepth(diff, 2 * STREAM_JSON_DEPTH) as typeof diff, transcript: diffTranscript(diff) };
    }),

    async runInFormats({ sessionId, formats }) {
      const rt = runtimeOf(sessionId);
      const built = rt.runSpec;
      if (!built) throw new Error(`"${rt.data.title}" was not connected to an agent (it is a file, a replay or a proxied stream), so there is no request to run again.`);
      // Every variant is checked before the first is sent: all run or none.
      const requests = formats.map((format) => requestInFormat(built, format, { inline: rt.data.summary().inline }));
      const started: SessionSummary[] = [];
      for (const request of requests) started.push(await service.connect(request));
      return started;
    },

    startReplay: query(({ sessionId, speed, instant, paused }) => startReplay(runtimeOf(sessionId), speed ?? 1, instant ?? false, paused ?? false)),

    async replayControl({ sessionId, action }) {
      const rt = runtimeOf(sessionId);
      if (!rt.replay) throw new Error(`Session ${sessionId} is not a replay; start one with startReplay`);
      return rt.replay.control(action);
    },

    async saveRecording({ sessionId, path }) {
      const rt = runtimeOf(sessionId);
      if (path === undefined) throw new Error('Choose where to save the recording');
      if (!deps.createRecorder) throw new Error('Recording is not available in this host');
      const absolute = resolve(path);
      await saveRecording(rt.data, rt.actions, absolute, deps.createRecorder);
      const { size } = await import('node:fs/promises').then((fs) => fs.stat(absolute));
      return { path: absolute, bytes: size };
    },

    async exportSession({ sessionId, kind, path }) {
      const rt = runtimeOf(sessionId);
      if (path === undefined) throw new Error('Choose where to export to');
      const absolute = resolve(path);
      const bytes = await exportSession(rt.data, kind, absolute);
      return { path: absolute, bytes };
    },

    renameSession: query(({ sessionId, title }) => {
      const rt = runtimeOf(sessionId);
      const name = title.replace(/\s+/g, ' ').trim();
      if (name === '') throw new Error('A session needs a name: type one, or press Esc to keep the old one.');
      rt.data.title = name;
      announce();
      return rt.data.summary();
    }),

    downloadSession({ sessionId, kind }) {
      const rt = runtimeOf(sessionId);
      return downloadFile(rt.data, rt.actions, kind, deps.createRecorder);
    },

    attachRun({ sessionId, headers, url }) {
      const rt = runtimeOf(sessionId);
      const recorded = rt.data.legs[0]?.request;
      if (!recorded) throw new Error('The file has no recorded request to answer');
      rt.run = { method: recorded.method, url: url ?? recorded.url, headers, body: recorded.body };
      rt.answerable = true;
    },

    async startProxy({ port, target, recordDir }) {
      if (proxy) throw new Error(`The proxy is already running on ${proxy.state().url}; stop it first.`);
      if (recordDir !== undefined) await mkdir(resolve(recordDir), { recursive: true });
      proxy = await startRecordingProxy({
        port,
        target,
        ...(recordDir !== undefined ? { recordDir: resolve(recordDir) } : {}),
        sessions: { open: openExternalSession },
        now,
        onChanged: (state) => proxyChanged.fire(state),
      });
      const state = proxy.state();
      proxyChanged.fire(state);
      return state;
    },

    async stopProxy() {
      const running = proxy;
      proxy = null;
      await running?.close();
      proxyChanged.fire(null);
    },

    getProxy: () => Promise.resolve(proxy?.state() ?? null),

    reopen: ({ sessionId, path, title, format }) => {
      if (sessions.has(sessionId)) return Promise.reject(new Error(`Session ${sessionId} is open already`));
      return openSourceFile(path, { id: sessionId, title, ...(format ? { format } : {}) });
    },

    onSessionsChanged: sessionsChanged.event,
    onSessionBatch: batches.event,
    onLiveStatus: liveStatus.event,
    onReplayState: replayState.event,
    onError: errors.event,
    onProxyChanged: proxyChanged.event,

    async dispose() {
      await service.stopProxy();
      for (const id of [...sessions.keys()]) await service.closeSession({ sessionId: id });
      batcher.dispose();
      ticker.dispose();
      if (countsTimer !== null) timers.clearTimeout(countsTimer);
      countsTimer = null;
    },
  };
  return service;
}

const unmasked = (text: string): string => text;

/** A live session's default name; a URL whose host was a secret (now `{{name}}`) is named as it is shown. */
function titleOf(built: BuiltRequest, displayUrl: string, mask: (text: string) => string, demo: DemoAgentInfo): string {
  let url: URL;
  try {
    url = new URL(displayUrl);
  } catch {
    return `${built.spec.method} ${displayUrl}`;
  }
  return liveSessionTitle({ method: built.spec.method, url, body: built.recorded.body === null ? null : mask(built.recorded.body) }, demo ? { info: demo, scenarioOf: demoScenarioOf } : null);
}

/** A request as the session shows and records it: every secret value the mask knows replaced by its `{{name}}`. */
function maskRequest(request: RecordedRequest, mask: (text: string) => string): RecordedRequest {
  return { method: request.method, url: mask(request.url), headers: request.headers.map(([name, value]) => [name, mask(value)]), body: request.body === null ? null : mask(request.body) };
}

/** The continuation's first envelope is the router's error frame: the server rejected the results. */
function firstContentIsErrorFrame(data: SessionData, leg: number): boolean {
  for (let seq = data.legs[leg]?.firstEnvelope ?? data.envelopeCount; seq < data.envelopeCount; seq++) {
    const envelope = data.envelope(seq);
    if (!envelope || envelope.leg < leg) continue;
    if (envelope.leg > leg) return false;
    if (envelope.type === 'meta_init') continue;
    return envelope.control === 'error-frame';
  }
  return false;
}
