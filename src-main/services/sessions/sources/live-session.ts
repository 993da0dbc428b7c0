import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isWireFormat } from '../../../../src-shared/agents/wire-formats';
import type {
  ConnectRequest,
  DemoAgentInfo,
  Failure,
  RunInFormatsRequest,
  SessionSummary,
} from '../../../../src-shared/contract/payloads';
import { redactUrl } from '../../../../src-shared/recording/redact';
import type { RecordedRequest } from '../../../../src-shared/recording/types';
import { maskSecrets } from '../../../../src-shared/requests/variables';
import { buildRequest, type BuiltRequest } from '../../connection/request-spec';
import { demoScenarioOf } from '../demo-agent-info';
import { decodeAsOf } from '../../../../src-shared/recording/format';
import { RECORDING_FLUSH_MS, type RecorderPort } from '../recorder-port';
import { unmasked, type Runtime, type SessionRegistry } from '../session-registry';
import { liveSessionTitle } from '../session-title';
import type { LegKind } from '../store/leg-state';
import { spoolPath } from '../spool-folders';
import { requestInFormat } from './format-runs';
import { startLiveLeg, type LiveLeg, type LiveLegEnd } from './live-leg';

/**
 * Live sessions: a request sent to an agent server and its response stream decoded as it
 * arrives, each leg (the run, its reconnects, its tool-results continuations) through
 * `runLeg`; a GET stream that drops is reopened with Last-Event-ID and backoff.
 */

/** Reconnect delay bounds for GET streams: the server's `retry` is honoured within these. */
export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 60_000;
const RECONNECT_DEFAULT_MS = 3000;

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

export type LiveSessions = ReturnType<typeof createLiveSessions>;

export function createLiveSessions(registry: SessionRegistry) {
  const {
    deps,
    now,
    timers,
    connectionDeps,
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
    runtimeOf,
  } = registry;

  const runLeg = (
    rt: Runtime,
    kind: LegKind,
    request: BuiltRequest,
    onEnded?: (live: LiveLeg, end: LiveLegEnd) => void,
  ): LiveLeg => {
    const data = rt.data;
    data.state = 'connecting';
    data.failure = undefined;
    const shown =
      rt.mask === unmasked ? request : { spec: request.spec, recorded: maskRequest(request.recorded, rt.mask) };
    const live = startLiveLeg(
      data,
      kind,
      shown,
      rt.recorder,
      connectionDeps,
      {
        onResponse(accepted) {
          if (accepted) data.state = 'streaming';
          ticker.emitNow(data.id);
          announce();
        },
        closing: () => rt.closed,
      },
      rt.secrets,
    );
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
    const reopenable =
      reason === 'complete' ||
      reason === 'aborted' ||
      (reason === 'failed' && end.failure !== undefined && RECONNECTABLE_FAILURES.has(end.failure.kind));
    const reconnecting =
      !rt.closed && reopenable && rt.reconnect !== null && rt.reconnect.attemptsLeft > 0 && rt.runSpec !== null;
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
    reconnect.timer = timers.setTimeout(
      () => {
        reconnect.timer = null;
        if (rt.closed) return;
        const without = (headers: [string, string][]): [string, string][] =>
          headers.filter(([n]) => n.toLowerCase() !== 'last-event-id');
        const wire = without(spec.spec.headers);
        const recorded = without(spec.recorded.headers);
        if (lastEventId !== '') {
          wire.push(['Last-Event-ID', utf8HeaderValue(lastEventId)]);
          recorded.push(['Last-Event-ID', lastEventId]);
        }
        runLeg(rt, 'reconnect', {
          spec: { ...spec.spec, headers: wire },
          recorded: { ...spec.recorded, headers: recorded },
        });
        announce();
      },
      backoffDelay(reconnect.retry, reconnect.failuresInARow),
    );
  };

  async function connect(request: ConnectRequest): Promise<SessionSummary> {
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
        ...decodeAsOf(request.format),
        onError: (error) =>
          reportError(undefined, { kind: 'internal', message: `Recording to ${path} stopped: ${error.message}` }),
      });
    } else if (deps.spoolDir !== undefined && deps.createRecorder) {
      await mkdir(deps.spoolDir, { recursive: true, mode: 0o700 });
      // Spooling is a safety net: when it fails, the session runs on without it.
      recorder = await Promise.resolve(
        deps.createRecorder(spoolPath(deps.spoolDir, id), {
          flushIntervalMs: RECORDING_FLUSH_MS,
          redact: true,
          ...decodeAsOf(request.format),
        }),
      ).catch(() => null);
    }
    const displayUrl = mask(redactUrl(built.spec.url.href));
    const demo = deps.demoAgent?.() ?? null;
    const data = newStore({
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
      secrets,
      reconnect: request.reconnect
        ? { attemptsLeft: request.reconnect.maxAttempts, timer: null, retry: null, failuresInARow: 0 }
        : null,
    });
    runLeg(rt, 'run', built);
    return data.summary();
  }

  async function stop({ sessionId }: { sessionId: string }): Promise<void> {
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
  }

  /** The session's run again, once per wire format (their block diff shows what the format changes). */
  async function runInFormats({ sessionId, formats }: RunInFormatsRequest): Promise<SessionSummary[]> {
    const rt = runtimeOf(sessionId);
    const built = rt.runSpec;
    if (!built)
      throw new Error(
        `"${rt.data.title}" was not connected to an agent (it is a file, a replay or a proxied stream), so there is no request to run again.`,
      );
    const dialect = rt.data.summary().format;
    if (dialect !== null && !isWireFormat(dialect))
      throw new Error(
        `"${rt.data.title}" is a ${dialect} stream, which has one format only: there is no xml or json of it to run.`,
      );
    // Every variant is checked before the first is sent: all run or none.
    const requests = formats.map((format) => requestInFormat(built, format, { inline: rt.data.summary().inline }));
    const started: SessionSummary[] = [];
    for (const request of requests) started.push(await connect(request));
    return started;
  }

  return { runLeg, connect, stop, runInFormats };
}

/** A live session's default name; a URL whose host was a secret (now `{{name}}`) is named as it is shown. */
function titleOf(built: BuiltRequest, displayUrl: string, mask: (text: string) => string, demo: DemoAgentInfo): string {
  let url: URL;
  try {
    url = new URL(displayUrl);
  } catch {
    return `${built.spec.method} ${displayUrl}`;
  }
  return liveSessionTitle(
    { method: built.spec.method, url, body: built.recorded.body === null ? null : mask(built.recorded.body) },
    demo ? { info: demo, scenarioOf: demoScenarioOf } : null,
  );
}

/** A request as the session shows and records it: every secret value the mask knows replaced by its `{{name}}`. */
function maskRequest(request: RecordedRequest, mask: (text: string) => string): RecordedRequest {
  return {
    method: request.method,
    url: mask(request.url),
    headers: request.headers.map(([name, value]) => [name, mask(value)]),
    body: request.body === null ? null : mask(request.body),
  };
}
