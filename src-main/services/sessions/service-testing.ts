import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type {
  ErrorEvent,
  LiveStatus,
  SessionBatch,
  SessionSummary,
  TimelineRow,
} from '../../../src-shared/contract/payloads';
import { expandColumns, type ColumnRow } from '../../../src-shared/testing/row-columns';
import { readFixture } from '../../testing/fixtures';
import { startLoopbackServer, type LoopbackHandler, type LoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../demo-agent/server';
import { createSessionService, type SessionService, type SessionServiceDeps } from './session-service';

/** Test support: records every event a session service fires, and waits for conditions. */
export interface EventLog {
  batches: SessionBatch[];
  statuses: LiveStatus[];
  lists: SessionSummary[][];
  errors: ErrorEvent[];
  /**
   * Rows per session, rebuilt from batches as a renderer would (appends + changes): the full
   * row where a batch carried it, else what the compact columns say of it.
   */
  rows(sessionId: string): (TimelineRow | ColumnRow)[];
  dispose(): void;
}

export function recordEvents(
  service: Pick<SessionService, 'onSessionBatch' | 'onLiveStatus' | 'onSessionsChanged' | 'onError'>,
): EventLog {
  const log: EventLog = {
    batches: [],
    statuses: [],
    lists: [],
    errors: [],
    rows(sessionId) {
      const rows: (TimelineRow | ColumnRow)[] = [];
      for (const batch of log.batches) {
        if (batch.sessionId !== sessionId) continue;
        if (batch.start > rows.length) throw new Error(`batch starts at ${batch.start}, ${rows.length} rows seen`);
        // A batch starting below the rows held: the session started over (replay seek back).
        rows.length = batch.start;
        rows.push(...expandColumns(batch.start, batch.columns));
        for (const row of [...batch.rows, ...batch.changed]) rows[row.seq] = row;
      }
      return rows;
    },
    dispose: () => unsubscribes.forEach((u) => u()),
  };
  const unsubscribes = [
    service.onSessionBatch((b) => log.batches.push(b)),
    service.onLiveStatus((s) => log.statuses.push(s)),
    service.onSessionsChanged((l) => log.lists.push(l)),
    service.onError((e) => log.errors.push(e)),
  ];
  return log;
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Resolves with the first value `subscribe` delivers (or `current` already holds) that
 * `accept` maps to something: an event wait, where polling on a timer would race a loaded
 * machine or sleep longer than needed.
 */
export function whenEvent<E, T>(
  subscribe: (listener: (value: E) => void) => () => void,
  accept: (value: E) => T | undefined | false,
  what: string,
  options: { current?: E; timeoutMs?: number } = {},
): Promise<T> {
  if (options.current !== undefined) {
    const now = accept(options.current);
    if (now !== undefined && now !== false) return Promise.resolve(now);
  }
  return new Promise<T>((resolve, reject) => {
    const unsubscribe = subscribe((value) => {
      const accepted = accept(value);
      if (accepted === undefined || accepted === false) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(accepted);
    });
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`Timed out waiting for ${what}`));
    }, options.timeoutMs ?? 10_000);
  });
}

/** Resolves once the session has left the connecting/streaming/loading states. */
export function settled(service: SessionService, sessionId: string, timeoutMs = 5000): Promise<SessionSummary> {
  return waitFor(
    async () => {
      const list = await service.listSessions();
      const summary = list.find((s) => s.id === sessionId);
      return summary && !['connecting', 'streaming', 'loading'].includes(summary.state) ? summary : undefined;
    },
    `session ${sessionId} to settle`,
    timeoutMs,
  );
}

/** One leg of a hand-made recording: its network chunks (text) and their receive times. */
export interface RecordingLegSpec {
  startedAt: number;
  chunks: { t: number; text: string }[];
}

/**
 * Writes a recording file (docs/recording-format.md) with exactly the given chunks and times,
 * so replay tests control how the bytes were cut by the network.
 */
export async function writeRecordingFile(path: string, legs: readonly RecordingLegSpec[]): Promise<void> {
  const lines: unknown[] = [
    {
      format: 'agent-stream-inspector-recording',
      version: 1,
      createdAt: '2026-03-01T12:00:00.000Z',
      t: 0,
      redacted: true,
    },
  ];
  legs.forEach((leg, index) => {
    lines.push({
      type: 'leg',
      leg: index,
      t: leg.startedAt,
      request: { method: 'GET', url: 'http://127.0.0.1:9/stream', headers: [], body: null },
    });
    lines.push({
      type: 'response',
      leg: index,
      t: leg.startedAt,
      status: 200,
      statusText: 'OK',
      headers: [['content-type', 'text/event-stream']],
    });
    for (const chunk of leg.chunks)
      lines.push({ type: 'chunk', leg: index, t: chunk.t, bytes: Buffer.from(chunk.text, 'utf8').toString('base64') });
    lines.push({ type: 'end', leg: index, t: leg.chunks.at(-1)?.t ?? leg.startedAt, reason: 'done' });
  });
  await writeFile(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''), { flag: 'wx' });
}

/** A run that pauses on frontend tools (JSON format), its continuation, and the agent both name. */
export const FRONTEND = readFixture('frontend_tools.json.sse');
export const RESUME = readFixture('frontend_tools_resume.json.sse');
export const AGENT = '55555555-5555-4555-8555-555555555555';

/** Splits bytes into pieces of `size` (the last may be shorter). */
export function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export interface LiveSetup {
  server: LoopbackServer;
  service: SessionService;
  events: EventLog;
}

/**
 * Test support for live-session tests: `setup` starts a loopback server with the handler and a
 * session service (with these dependencies) recording its events; all are disposed after each test.
 */
export function useLiveSetup(): (handler: LoopbackHandler, deps?: SessionServiceDeps) => Promise<LiveSetup> {
  let current: Partial<LiveSetup> = {};
  afterEach(async () => {
    current.events?.dispose();
    await current.service?.dispose();
    await current.server?.close();
    current = {};
  });
  return async (handler, deps) => {
    current.server = await startLoopbackServer(handler);
    current.service = createSessionService(deps);
    current.events = recordEvents(current.service);
    return current as LiveSetup;
  };
}

/** A JSON object a test reads a sent body as. */
export type Json = Record<string, unknown>;

/**
 * The demo agent for a whole test file, behind a loopback server per test that passes every
 * request on to it and its answer back, so a test sees exactly what the inspector sent
 * (`server.requests`). Returns what starts that server and its session service.
 */
export function useDemoProxy(): () => Promise<LiveSetup> {
  let demo: DemoAgent | undefined;
  beforeAll(async () => {
    demo = await startDemoAgent({ pace: 'fast' });
  });
  afterAll(async () => {
    await demo?.close();
  });
  const setup = useLiveSetup();
  return () =>
    setup(async (req, res, body) => {
      const answer = await fetch(`${demo?.url ?? ''}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
}

/** A session service and a temporary folder, shared by the tests of one file. */
export interface FileService {
  readonly service: SessionService;
  readonly dir: string;
}

/**
 * One session service (from `create`: the default host's, which records to disk) and one
 * temporary folder for a whole test file, made before its tests and removed after them: each
 * test opens sessions and writes files of its own in them.
 */
export function useFileService(prefix: string, create: () => SessionService): FileService {
  const shared = {} as { service: SessionService; dir: string };
  beforeAll(async () => {
    shared.dir = await mkdtemp(join(tmpdir(), prefix));
    shared.service = create();
  });
  afterAll(async () => {
    await shared.service.dispose();
    await rm(shared.dir, { recursive: true, force: true });
  });
  return shared;
}

/**
 * A fresh session service and temporary folder for each test (from `create`, given the folder:
 * the default host's service with its uploads there), removed after it: for tests that count
 * the sessions open or the files an upload leaves.
 */
export function useServicePerTest(prefix: string, create: (dir: string) => SessionService): FileService {
  const fresh = {} as { service: SessionService; dir: string };
  beforeEach(async () => {
    fresh.dir = await mkdtemp(join(tmpdir(), prefix));
    fresh.service = create(fresh.dir);
  });
  afterEach(async () => {
    await fresh.service.dispose();
    await rm(fresh.dir, { recursive: true, force: true });
  });
  return fresh;
}
