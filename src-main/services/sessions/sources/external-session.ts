import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Failure, LegEndInfo, ProxyStartRequest, ProxyState } from '../../../../src-shared/contract/payloads';
import { redactUrl } from '../../../../src-shared/recording/redact';
import { consumerFailure } from '../../connection/connection';
import { startRecordingProxy, type ExternalSession, type RecordingProxy } from '../../proxy/proxy-sessions';
import { MAX_BACKLOG_BYTES, RECORDING_FLUSH_MS, recordedOutcome, type RecorderPort } from '../recorder-port';
import type { SessionRegistry } from '../session-registry';
import { endLegInSession } from './live-leg';

/**
 * External sessions: sessions fed from outside the service, by the recording proxy
 * (docs/proxy.md), one per event stream that passes through it; and the proxy's own commands.
 */

export type ExternalSessions = ReturnType<typeof createExternalSessions>;

/**
 * Proxied sessions kept open at once (each holds its spool files). A new stream at the limit
 * closes the oldest finished one, as Fiddler's "Keep: N sessions" does; when every one is
 * still streaming or waiting for tool results, the stream passes unrecorded, saying why
 * (docs/proxy.md).
 */
export const MAX_OPEN_PROXY_SESSIONS = 50;

/** While a recording is further behind the stream than MAX_BACKLOG_BYTES: resolves once it has caught up. */
function waitForDisk(recorder: RecorderPort | null): Promise<void> | undefined {
  if (!recorder?.flush || (recorder.backlog ?? 0) <= MAX_BACKLOG_BYTES) return undefined;
  // A failed write was reported when it failed (onError); the stream goes on, unrecorded.
  return recorder.flush().catch(() => undefined);
}

export function createExternalSessions(
  registry: SessionRegistry,
  closeSession: (request: { sessionId: string }) => Promise<void>,
) {
  const {
    deps,
    now,
    spooling,
    ticker,
    announce,
    reportError,
    register,
    newStore,
    newId,
    track,
    settleSession,
    endState,
    events,
    sessions,
  } = registry;
  const proxyChanged = events.proxyChanged;
  let proxy: RecordingProxy | null = null;
  /**
   * Proxied sessions opened, oldest first (those closed since are dropped when counting), each
   * with whether it has finished (ended and settled, not waiting for tool results); and how
   * many are being opened.
   */
  const proxied = new Map<string, { finished: () => boolean }>();
  let proxiedOpening = 0;
  /** The user was told, once per proxy run, that the oldest finished sessions make room. */
  let evictionTold = false;
  const openProxied = (): number => {
    for (const id of proxied.keys()) if (!sessions.has(id)) proxied.delete(id);
    return proxied.size + proxiedOpening;
  };

  /**
   * Makes room for one more proxied session: closes the oldest finished one. A recording of it
   * stays on disk (open it again from there); a session still streaming or paused on frontend
   * tools is never closed. Returns false when none could go.
   */
  const evictOldestFinished = async (): Promise<boolean> => {
    const oldest = [...proxied].find(([, entry]) => entry.finished());
    if (!oldest) return false;
    const [id] = oldest;
    proxied.delete(id);
    await closeSession({ sessionId: id });
    if (!evictionTold) {
      evictionTold = true;
      const where = proxy?.state().recordDir;
      reportError(undefined, {
        kind: 'internal',
        message:
          `The proxy keeps the newest ${MAX_OPEN_PROXY_SESSIONS} proxied sessions: older finished ones are closed as new streams arrive` +
          (where !== undefined
            ? ` (their recordings stay in ${where})`
            : ' (start the proxy with a recording folder to keep every stream)'),
      });
    }
    return true;
  };

  /**
   * A session fed from outside (the recording proxy): each leg's request, response head,
   * chunks and end are pushed as they pass, and recorded (secrets redacted) when `recordTo` is set.
   */
  const openExternalSession = async (init: {
    title: string;
    method: string;
    url: string;
    recordTo?: string;
  }): Promise<ExternalSession> => {
    // Any local process or page can start streams through the proxy: each session holds its
    // spool files until closed, so only so many are kept open (docs/proxy.md).
    while (openProxied() >= MAX_OPEN_PROXY_SESSIONS)
      if (!(await evictOldestFinished()))
        throw new Error(
          `${MAX_OPEN_PROXY_SESSIONS} proxied sessions are still streaming or waiting for tool results; close some to record more`,
        );
    let recorder: RecorderPort | null = null;
    proxiedOpening++;
    try {
      if (init.recordTo !== undefined) {
        if (!deps.createRecorder) throw new Error('Recording is not available in this host');
        const path = init.recordTo;
        recorder = await deps.createRecorder(path, {
          flushIntervalMs: RECORDING_FLUSH_MS,
          redact: true,
          onError: (error) =>
            reportError(undefined, { kind: 'internal', message: `Recording to ${path} stopped: ${error.message}` }),
        });
      }
    } finally {
      proxiedOpening--;
    }
    const data = newStore({
      id: newId(),
      title: init.title,
      source: { kind: 'live', method: init.method, url: redactUrl(init.url) },
      createdAt: now(),
      ...spooling,
    });
    if (init.recordTo !== undefined) data.recordingPath = init.recordTo;
    const rt = register(data, { recorder });
    /** Every leg started has ended and settled (a paused run's may go on: it is not finished). */
    let legsOpen = 0;
    proxied.set(data.id, { finished: () => legsOpen === 0 && data.legs.length > 0 && data.pendingTools() === null });
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
        legsOpen++;
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
            legsOpen--;
          });
        };
        return {
          response(head) {
            data.setResponse(leg, head);
            // The proxy taps only responses that announce a stream.
            rt.recorder?.response(recorderLeg, head, true);
            data.state = 'streaming';
            ticker.emitNow(data.id);
            announce();
          },
          chunk(bytes, receivedAt) {
            if (rt.closed || ended) return undefined;
            rt.recorder?.chunk(recorderLeg, bytes, receivedAt);
            try {
              data.push(leg, bytes, receivedAt);
            } catch (error) {
              const failure = consumerFailure(error);
              endLeg({ reason: 'failed', message: failure.message }, failure);
            }
            return waitForDisk(rt.recorder);
          },
          end(end) {
            if (rt.closed || ended) return;
            endLeg(end);
          },
        };
      },
    };
  };

  async function startProxy({ port, target, recordDir }: ProxyStartRequest): Promise<ProxyState> {
    if (proxy) throw new Error(`The proxy is already running on ${proxy.state().url}; stop it first.`);
    evictionTold = false;
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
  }

  async function stopProxy(): Promise<void> {
    const running = proxy;
    proxy = null;
    await running?.close();
    proxyChanged.fire(null);
  }

  function getProxy(): Promise<ProxyState | null> {
    return Promise.resolve(proxy?.state() ?? null);
  }

  /** A session closed: its entry goes at once, since the entry's closure holds the whole session (its store). */
  function forget(sessionId: string): void {
    proxied.delete(sessionId);
  }

  return { startProxy, stopProxy, getProxy, forget };
}
