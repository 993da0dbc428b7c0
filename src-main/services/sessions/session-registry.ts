import { randomBytes } from 'node:crypto';
import { createEmitter } from '../../../src-shared/contract/emitter';
import { BATCH_INTERVAL_MS, MAX_BATCH_ROWS } from '../../../src-shared/contract/inspector';
import type {
  DemoAgentInfo,
  ErrorEvent,
  Failure,
  LegEndInfo,
  LiveStatus,
  ProxyState,
  ReplayState,
  SessionBatch,
  SessionSummary,
  TaskProgress,
} from '../../../src-shared/contract/payloads';
import type { RecordedAction, RecordedRequest } from '../../../src-shared/recording/types';
import { consumerFailure, realTimers, wallClock, type Timers } from '../connection/connection';
import type { HttpTransport } from '../connection/http-transport';
import type { BuiltRequest } from '../connection/request-spec';
import type { HarEntrySummary } from '../../../src-shared/recording/har';
import type { ImportedSource, OpenSourceOptions } from '../importers/types';
import type { ReplayClock } from '../replay/clock';
import { createAnswerLedger, pendingSetKey, type AnswerLedger } from '../tool-results/answer-ledger';
import { createBatcher } from './batcher';
import type { RecorderFactory, RecorderPort } from './recorder-port';
import type { LegSecrets, LiveLeg } from './sources/live-leg';
import { createStatusTicker } from './sources/live-status';
import { createProgressTicker } from './sources/task-progress';
import { createUploadFolder } from './sources/upload-folder';
import type { UploadStream } from './sources/upload-stream';
import type { ReplaySession } from './sources/replay-player';
import { createSessionStore, type SessionInit, type SessionStore } from './store/session-store';
import type { OpenSpool } from './store/spool-file';

/**
 * The open sessions and how they are announced: the registry every session source (live,
 * file, replay, external) registers its sessions with, the events of the contract, the batcher
 * that turns a session's changes into row batches, and the live status ticker.
 */

export type OpenSource = (path: string, options?: OpenSourceOptions) => Promise<ImportedSource>;

export interface SessionServiceDeps {
  transport?: HttpTransport;
  now?: () => number;
  timers?: Timers;
  createRecorder?: RecorderFactory;
  openSource?: OpenSource;
  demoAgent?: () => DemoAgentInfo;
  /**
   * Where the private folder for uploaded files (browser host) is made (sources/upload-folder.ts):
   * by default the run's spool folder, so a run that crashes leaves nothing the next start does
   * not sweep (spool-folders.ts); the temp folder when there is none.
   */
  uploadDir?: string;
  /** An upload with no piece for this long is cut (sources/upload-stream.ts; tests shorten it). */
  uploadIdleMs?: number;
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

/**
 * One open session: its store and what its source keeps beside it, grouped by the kind of session
 * each part serves; the parts a kind does not use keep their empty values (null, false, undefined).
 */
export interface Runtime extends SessionCore, RunRequestParts, LiveParts, FileParts, ReplayParts {}

/** Held by every session, whatever its source. */
interface SessionCore {
  data: SessionStore;
  recorder: RecorderPort | null;
  ledger: AnswerLedger;
  actions: RecordedAction[];
  closed: boolean;
  /** Settles when the current leg has been fully ended (state published, recording updated): live and proxy legs. */
  ending: Promise<void>;
  /** The session's chunks are network chunks with receive times (live, recordings), not blocks of a file. */
  networkChunks: boolean;
  lastActivityAt: number;
  startedAt: number;
}

/** The request a session's run was made with: live and proxy sessions, and the recordings and replays that carry one. */
interface RunRequestParts {
  /** The run's request as sent (tool results and reconnects are derived from it). */
  run: RecordedRequest | null;
  /** Hides the environment's secret values in every request and action the session shows or records. */
  mask: (text: string) => string;
}

/** Live sessions: the request built to send, the leg streaming now, and reconnects. */
interface LiveParts {
  runSpec: BuiltRequest | null;
  current: LiveLeg | null;
  /** `retry`: the last one the server sent; `failuresInARow`: attempts that got no bytes (for backoff). */
  reconnect: { attemptsLeft: number; timer: unknown; retry: number | null; failuresInARow: number } | null;
  /** The environment secret values the request was sent with: what `mask` hides, also in the bytes every leg receives. */
  secrets: LegSecrets;
}

/** File sessions (files, recordings, uploads). */
interface FileParts {
  loading: boolean;
  /** A file session given the credentials to answer its pause against the live server (CLI answer). */
  answerable: boolean;
  /** An upload and its copy in the private upload folder: cut if still arriving and removed when the session closes. */
  upload?: UploadStream;
  /** A live run's received bytes saved in the private upload folder to be decoded again: removed when the session closes. */
  copy?: string;
  /** A HAR of several entries waiting for the user's choice: its entries, and loading the chosen ones. */
  harChoice?: { entries: HarEntrySummary[]; choose(entries: readonly number[]): Promise<void> };
}

/** Replay sessions. */
interface ReplayParts {
  /** The player. */
  replay: ReplaySession | null;
}

export const unmasked = (text: string): string => text;

export type SessionRegistry = ReturnType<typeof createSessionRegistry>;

export function createSessionRegistry(deps: SessionServiceDeps) {
  const now = deps.now ?? wallClock;
  const timers = deps.timers ?? realTimers;
  const connectionDeps = { ...(deps.transport ? { transport: deps.transport } : {}), now, timers };
  const sessions = new Map<string, Runtime>();
  const uploads = createUploadFolder(deps.uploadDir ?? deps.spoolDir);

  const events = {
    sessionsChanged: createEmitter<SessionSummary[]>(),
    batches: createEmitter<SessionBatch>(),
    liveStatus: createEmitter<LiveStatus>(),
    progress: createEmitter<TaskProgress>(),
    replayState: createEmitter<ReplayState>(),
    errors: createEmitter<ErrorEvent>(),
    proxyChanged: createEmitter<ProxyState | null>(),
  };

  const batcher = createBatcher((batch) => events.batches.fire(batch), {
    timers,
    now,
    intervalMs: deps.batchIntervalMs ?? BATCH_INTERVAL_MS,
    maxRows: MAX_BATCH_ROWS,
  });
  const statusIntervalMs = deps.statusIntervalMs ?? 250;
  const ticker = createStatusTicker((status) => events.liveStatus.fire(status), {
    timers,
    now,
    intervalMs: statusIntervalMs,
  });

  const progress = createProgressTicker((p) => events.progress.fire(p), { timers, now, intervalMs: statusIntervalMs });

  const summaryOf = (rt: Runtime): SessionSummary => {
    const pending = rt.data.pendingTools();
    const answered = pending !== null && rt.ledger.state(pendingSetKey(pending.leg, pending.block.id)) === 'sent';
    const summary = rt.data.summary({ awaitingTools: pending !== null && !answered, answered });
    // The sidebar tells a paused replay from a playing one (it has no transport state).
    if (rt.replay && rt.data.state === 'streaming' && !rt.replay.state().playing) summary.replayPaused = true;
    if (rt.harChoice) summary.choosingHarEntries = true;
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
      events.sessionsChanged.fire([...sessions.values()].map(summaryOf));
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
    events.errors.fire({
      ...(sessionId ? { sessionId } : {}),
      kind: failure.kind,
      message: failure.message,
      at: now(),
    });
  };

  /** Where every session's spool files are created (tests inject failing ones). */
  const spooling = deps.openSpool ? { openSpool: deps.openSpool } : {};

  const runtimeOf = (sessionId: string): Runtime => {
    const rt = sessions.get(sessionId);
    if (!rt) throw new Error(`Unknown session '${sessionId}' (it may have been closed)`);
    return rt;
  };

  const register = (data: SessionStore, init: Partial<Runtime>): Runtime => {
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
      secrets: [],
      ...init,
    };
    sessions.set(data.id, rt);
    announce();
    return rt;
  };

  /** Something a batch would carry changed in the store of session `sessionId`. */
  const changed = (sessionId: string): void => {
    const rt = sessions.get(sessionId);
    if (!rt) return;
    rt.lastActivityAt = now();
    announceCounts();
    batcher.schedule(rt.data);
  };

  /** A session's store, its changes reported to the registry (a new generation of a session is one too). */
  const newStore = (init: Omit<SessionInit, 'onChange'>): SessionStore =>
    createSessionStore({ ...init, onChange: () => changed(init.id) });

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

  /** Stops the batcher, the ticker and the announce timer (the service is going away). */
  const dispose = (): void => {
    batcher.dispose();
    ticker.dispose();
    progress.dispose();
    if (countsTimer !== null) timers.clearTimeout(countsTimer);
    countsTimer = null;
  };

  return {
    deps,
    now,
    timers,
    connectionDeps,
    sessions,
    uploads,
    events,
    batcher,
    ticker,
    progress,
    spooling,
    summaryOf,
    announce,
    reportError,
    runtimeOf,
    register,
    changed,
    newStore,
    newId,
    track,
    settleSession,
    endState,
    dispose,
  };
}
