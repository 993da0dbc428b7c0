import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Listener, Unsubscribe } from '../../../../src-shared/contract/define';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES, type InspectorService } from '../../../../src-shared/contract/inspector';
import type { ErrorEvent, SessionSummary } from '../../../../src-shared/contract/payloads';
import { createContractClient, type ContractClient } from '../../../../src-shared/contract/wire';
import { countOf } from '../../../../src-shared/text/count';
import type { ReopenRequest } from '../session-service';
import { runSpoolFolder, spoolPath, sweepStaleSpoolFolders } from '../spool-folders';
import { isReloaded, type HostToWorker, type SessionWorkerData, type WorkerToHost } from './protocol';

/**
 * Starts the session service in a worker thread and returns it behind the same contract
 * interface, so hosts compose it exactly like the in-process service. Messages are checked
 * on the way back like any other transport's.
 *
 * The worker is supervised: when it stops without being asked to (an exception nothing
 * caught, an out-of-memory kill), a new one starts, the sessions that were open are reloaded
 * from their bytes on disk under the same ids (file sessions from their file, live sessions
 * from their recording or spool file), listeners keep their subscriptions, and an `onError`
 * event of kind `worker-restart` says what happened and what could not be reloaded.
 */
export interface SessionWorker {
  readonly service: InspectorService;
  /** The running worker thread (tests end it to stand for a crash). */
  readonly thread: Worker;
  /** Where live sessions are spooled (their recordings while they run). */
  readonly spoolDir: string;
  /** SessionService.holdBatches, in the worker (and in the one that replaces it after a failure). */
  holdBatches(held: boolean): void;
  dispose(): Promise<void>;
}

export interface SessionWorkerOptions extends Omit<SessionWorkerData, 'spoolDir'> {
  /** The worker's entry: the built session-worker.js, or session-worker.ts when running from source. */
  entry: URL;
  /** The entry is TypeScript: load it through tsx (the CLI, `npm start` and the tests run from source). */
  fromSource?: boolean;
  onError?: (error: Error) => void;
  /** Where live sessions are spooled (default: a folder of this run under the temp folder, removed on dispose). */
  spoolDir?: string;
  /** Restarts allowed within a minute before the supervisor gives up (default 3). */
  maxRestarts?: number;
}

/** How long a worker may take to close its sessions before it is terminated. */
export const DISPOSE_TIMEOUT_MS = 3000;
const RESTART_WINDOW_MS = 60_000;

/** A worker bootstrap that registers tsx's loader, then imports the TypeScript entry. */
function sourceBootstrap(entry: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

interface Running {
  worker: Worker;
  client: ContractClient<typeof INSPECTOR_CONTRACT>;
  exited: boolean;
  /** Why it failed, from its 'error' event (set before 'exit'). */
  failure: string | null;
  control: Set<(message: WorkerToHost) => void>;
}

interface Relay {
  listeners: Set<Listener<unknown>>;
  off: Unsubscribe | null;
}

/** Whether `path` is inside `folder` (at any depth). */
function isInside(path: string, folder: string): boolean {
  const within = relative(folder, path);
  return within !== '' && !within.startsWith('..') && !isAbsolute(within);
}

/**
 * Where a session's bytes are on disk, so a new worker can reload it; null when they were only
 * in memory. A replay has the bytes of the session it plays (followed through replays of
 * replays): it comes back as that whole stream, under its own id and title.
 */
function reopenRequest(
  summary: SessionSummary,
  open: readonly SessionSummary[],
  spoolDir: string | undefined,
): ReopenRequest | null {
  // A format the user chose is chosen again; a detected one is detected again from the same bytes and exchange.
  const chosen = summary.detection?.by === 'chosen' ? summary.format : null;
  const base = {
    sessionId: summary.id,
    title: summary.title,
    ...(chosen ? { format: chosen } : {}),
    ...(summary.inline ? { inline: summary.inline } : {}),
  };
  let origin: SessionSummary | undefined = summary;
  for (let hops = 0; origin?.source.kind === 'replay' && hops < open.length; hops++) {
    const of: string = origin.source.of;
    origin = open.find((s) => s.id === of);
  }
  if (!origin) return null;
  if (origin.source.kind === 'file') {
    const { path, entries, report, copyOf } = origin.source;
    // A file in this run's folder is the session's own copy (an upload, a run saved to decode again); a replay only reads it.
    const owned = origin === summary && spoolDir !== undefined && isInside(path, spoolDir);
    return {
      ...base,
      path,
      ...(entries ? { entries } : {}),
      ...(report !== undefined ? { report } : {}),
      ...(copyOf ? { copyOf } : {}),
      ...(owned ? { owned } : {}),
    };
  }
  if (origin.source.kind !== 'live') return null;
  const path = origin.recordingPath ?? (spoolDir !== undefined ? spoolPath(spoolDir, origin.id) : undefined);
  return path !== undefined && existsSync(path) ? { ...base, path } : null;
}

export function startSessionWorker(options: SessionWorkerOptions): SessionWorker {
  // Live sessions are spooled to disk so that a restarted worker can reload them; the folder is this run's.
  if (options.spoolDir === undefined) void sweepStaleSpoolFolders();
  const spoolDir = options.spoolDir ?? runSpoolFolder();
  const data: SessionWorkerData = { demoAgentUrl: options.demoAgentUrl, spoolDir };
  const maxRestarts = options.maxRestarts ?? 3;
  const relays = new Map<string, Relay>();
  const restartTimes: number[] = [];
  let sessions: SessionSummary[] = [];
  let disposing = false;
  let batchesHeld = false;

  const fanOut = (name: string, payload: unknown): void => {
    for (const listener of [...(relays.get(name)?.listeners ?? [])]) listener(payload);
  };
  const subscribeRelay = (client: Running['client'], name: string): Unsubscribe =>
    (client.service[name as keyof InspectorService] as unknown as (l: Listener<unknown>) => Unsubscribe)((payload) =>
      fanOut(name, payload),
    );

  const launch = (): Running => {
    const worker = options.fromSource
      ? new Worker(sourceBootstrap(options.entry), { eval: true, workerData: data })
      : new Worker(options.entry, { workerData: data });
    const client = createContractClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, (message) => worker.postMessage(message), {
      // The worker's contract server checked every result and event against the contract
      // before posting it, and a structured clone of checked plain data is the same data:
      // checking again here would parse every batch twice on the host's thread. The host's
      // own server still checks what it sends on to the renderer.
      validate: false,
      onProtocolError: (message) => options.onError?.(new Error(message)),
    });
    const running: Running = { worker, client, exited: false, failure: null, control: new Set() };
    worker.on('message', (message: unknown) => {
      if (message === 'disposed' || isReloaded(message)) {
        for (const handler of [...running.control]) handler(message);
        return;
      }
      client.receive(message);
    });
    worker.on('error', (error) => {
      running.failure = error.message;
      options.onError?.(error);
    });
    worker.on('exit', (code) => {
      running.exited = true;
      client.close(`The session worker stopped${running.failure ? `: ${running.failure}` : ''}`);
      for (const handler of [...running.control]) handler('disposed');
      if (!disposing && running === current) restart(running.failure ?? `it exited with code ${code}`);
    });
    // The supervisor always knows which sessions are open, to reload them after a failure.
    client.service.onSessionsChanged((list) => {
      if (running === current) sessions = list;
    });
    for (const [name, relay] of relays) if (relay.listeners.size > 0) relay.off = subscribeRelay(client, name);
    return running;
  };

  const announce = (message: string): void => {
    const event: ErrorEvent = { kind: 'worker-restart', message, at: Date.now() };
    fanOut('onError', event);
  };

  const restart = (reason: string): void => {
    const now = Date.now();
    while (restartTimes.length > 0 && now - (restartTimes[0] as number) > RESTART_WINDOW_MS) restartTimes.shift();
    if (restartTimes.length >= maxRestarts) {
      announce(
        `The session worker stopped (${reason}) ${countOf(restartTimes.length + 1, 'time')} within a minute and is not restarted again; restart the app.`,
      );
      return;
    }
    restartTimes.push(now);
    const open = sessions;
    const reload: ReopenRequest[] = [];
    const lost: string[] = [];
    for (const summary of open) {
      const request = reopenRequest(summary, open, spoolDir);
      if (request) reload.push(request);
      else lost.push(summary.title);
    }
    current = launch();
    const running = current;
    const done = (message: WorkerToHost): void => {
      running.control.delete(done);
      const failed = isReloaded(message)
        ? message.failed
        : reload.map((r) => ({ sessionId: r.sessionId, message: 'the new worker stopped too' }));
      const reloaded = reload.length - failed.length;
      const parts = [
        `The session worker stopped (${reason}) and was restarted; ${countOf(reloaded, 'session')} reloaded from ${reloaded === 1 ? 'its' : 'their'} bytes on disk.`,
      ];
      if (reloaded > 0) parts.push('Live connections that were running ended with it.');
      for (const f of failed)
        parts.push(`Could not reload ${open.find((s) => s.id === f.sessionId)?.title ?? f.sessionId}: ${f.message}`);
      if (lost.length > 0) parts.push(`Not reloaded (their bytes were only in memory): ${lost.join(', ')}.`);
      announce(parts.join(' '));
    };
    running.control.add(done);
    // Held before the sessions reload, so that none of their batches leaves meanwhile.
    if (batchesHeld) holdBatches(true);
    const message: HostToWorker = { t: 'reload', sessions: reload };
    running.worker.postMessage(message);
  };

  const holdBatches = (held: boolean): void => {
    batchesHeld = held;
    const message: HostToWorker = { t: 'hold-batches', held };
    current.worker.postMessage(message);
  };

  let current = launch();

  const service: Record<string, unknown> = {};
  for (const name of INSPECTOR_NAMES.commands) {
    service[name] = (arg?: unknown) => (current.client.service[name] as (arg?: unknown) => Promise<unknown>)(arg);
  }
  /**
   * Stops `session` when it is a running live session, before a close (or disposing) ends it.
   * In one thread the sessions list that says it ended reaches every listener before the close
   * deletes its spool file; across the thread boundary the host may read that list only after
   * the worker deleted the file, and recent sessions could not keep it. The worker posts that
   * list before it answers the stop.
   */
  const stopIfRunning = async (session: SessionSummary): Promise<void> => {
    const running = session.source.kind === 'live' && (session.state === 'connecting' || session.state === 'streaming');
    // Whatever the stop said (the session may have been closed meanwhile), the close goes on.
    if (running) await current.client.service.stop({ sessionId: session.id }).catch(() => undefined);
  };
  service['closeSession'] = async (arg: { sessionId: string }): Promise<void> => {
    const session = sessions.find((s) => s.id === arg.sessionId);
    if (session) await stopIfRunning(session);
    await current.client.service.closeSession(arg);
  };
  for (const name of INSPECTOR_NAMES.events) {
    service[name] = (listener: Listener<unknown>): Unsubscribe => {
      let relay = relays.get(name);
      if (!relay) relays.set(name, (relay = { listeners: new Set(), off: null }));
      const entry: Listener<unknown> = (payload) => listener(payload);
      relay.listeners.add(entry);
      relay.off ??= subscribeRelay(current.client, name);
      const owner = relay;
      return () => {
        owner.listeners.delete(entry);
        if (owner.listeners.size > 0) return;
        owner.off?.();
        owner.off = null;
      };
    };
  }

  return {
    service: service as unknown as InspectorService,
    get thread() {
      return current.worker;
    },
    spoolDir,
    holdBatches,
    async dispose() {
      disposing = true;
      const running = current;
      // Disposing closes every session: the running ones are stopped first (see stopIfRunning).
      if (!running.exited) await Promise.all(sessions.map(stopIfRunning));
      if (!running.exited) {
        // A worker that is busy or hung gets DISPOSE_TIMEOUT_MS to close its sessions; then it is terminated.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, DISPOSE_TIMEOUT_MS);
          running.control.add((message) => {
            if (message !== 'disposed') return;
            clearTimeout(timer);
            resolve();
          });
          const message: HostToWorker = 'dispose';
          running.worker.postMessage(message);
        });
      }
      await running.worker.terminate();
      if (options.spoolDir === undefined) await rm(spoolDir, { recursive: true, force: true });
    },
  };
}
