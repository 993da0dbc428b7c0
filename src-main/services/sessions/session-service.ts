import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MAX_RAW_BYTES, type InspectorService, type SessionKeys } from '../../../src-shared/contract/inspector';
import type { SessionSummary } from '../../../src-shared/contract/payloads';
import { diffSessions } from '../../../src-shared/diff/diff';
import { diffTranscript } from '../../../src-shared/diff/transcript';
import type { DiffInput } from '../../../src-shared/diff/types';
import { parseFilter } from '../../../src-shared/filter';
import { limitJsonDepth } from '../../../src-shared/json/tree';
import { createDecodeAgain } from './decode-again';
import { exportProbe, newExportCount } from './export-count';
import { downloadFile, exportSession, saveRecording, type ExportRun } from './session-files';
import { createSessionRegistry, type Runtime, type SessionServiceDeps } from './session-registry';
import { createExternalSessions } from './sources/external-session';
import { createFileSessions } from './sources/file-session';
import type { ReopenRequest } from './sources/reopen-request';
import { createLiveSessions } from './sources/live-session';
import { createReplaySessions } from './sources/replay-session';
import { spoolPath } from './spool-folders';
import {
  harEntryPayload,
  STREAM_JSON_DEPTH,
  toBlockDetail,
  toDiagnosticPayload,
  toEnvelopeDetail,
} from './store/session-summary';
import { createToolAnswers } from './tool-answers';

export type { SessionServiceDeps } from './session-registry';
export type { ReopenRequest } from './sources/reopen-request';

/**
 * The session service: every source of bytes (live connections, their tool-results
 * continuations, opened files, replays, the recording proxy) decoded into sessions, and every
 * session command of the contract. Plain Node with its dependencies injected: Electron, the
 * browser host, the CLI and the tests all run this same object (in-process, or in a worker
 * behind the same contract). This file is the contract façade: the sessions are kept by the
 * registry (session-registry.ts), each source opens its own (sources/*-session.ts), answers to
 * paused runs are tool-answers.ts, and what a session holds is the store (store/).
 */

export type SessionService = Pick<InspectorService, SessionKeys> & {
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
  /**
   * Holds row batches back while a client cannot take them (Batcher.hold): the browser host
   * calls it when a page's socket backs up. Not part of the contract: it is the transport's.
   */
  holdBatches(held: boolean): void;
};

/**
 * A command body as a contract command: what it throws, synchronously or not, becomes a
 * rejection. Reads and changes alike go through it (opening a file, renaming, answering).
 */
function command<A, R>(fn: (arg: A) => R | Promise<R>): (arg: A) => Promise<R> {
  return (arg) => new Promise<R>((resolve) => resolve(fn(arg)));
}

export function createSessionService(deps: SessionServiceDeps = {}): SessionService {
  const registry = createSessionRegistry(deps);
  const { sessions, events, batcher, ticker, announce, runtimeOf, summaryOf } = registry;
  const live = createLiveSessions(registry);
  const files = createFileSessions(registry);
  const replays = createReplaySessions(registry);
  const external = createExternalSessions(registry, closeSession);
  const answers = createToolAnswers(registry, live);
  const decodeAgainAs = createDecodeAgain(registry, files, closeSession, deps.createRecorder);

  /**
   * Runs an export under the session's progress bar (bytes written, envelopes/s) until it ends,
   * however it ends; closing the session stops it.
   */
  async function withExportProgress<T>(rt: Runtime, write: (run: ExportRun) => Promise<T>): Promise<T> {
    const count = newExportCount(rt.data);
    const finish = registry.progress.track(rt.data.id, exportProbe(count));
    try {
      return await write({ count, cancelled: () => rt.closed });
    } finally {
      finish();
    }
  }

  async function closeSession({ sessionId }: { sessionId: string }): Promise<void> {
    const rt = sessions.get(sessionId);
    if (!rt) return;
    rt.closed = true;
    await rt.replay?.dispose();
    await live.stop({ sessionId });
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
    external.forget(sessionId);
    sessions.delete(sessionId);
    if (deps.spoolDir !== undefined) await rm(spoolPath(deps.spoolDir, sessionId), { force: true });
    if (rt.upload) {
      await rt.upload.close();
      await registry.uploads.remove(rt.upload.path);
    }
    if (rt.copy !== undefined) await registry.uploads.remove(rt.copy);
    announce();
  }

  const service: SessionService = {
    getDemoAgent: () => Promise.resolve(deps.demoAgent?.() ?? null),

    connect: live.connect,
    stop: live.stop,
    runInFormats: live.runInFormats,
    openFile: command(files.openFile),
    beginUpload: files.beginUpload,
    sendUploadChunk: files.sendUploadChunk,
    abortUpload: files.abortUpload,
    openUpload: files.openUpload,
    openHarEntries: files.openHarEntries,
    decodeAgainAs: command(decodeAgainAs),
    reopen: files.reopen,
    holdBatches: (held) => batcher.hold(held),
    startReplay: command(replays.startReplay),
    replayControl: replays.replayControl,
    startProxy: external.startProxy,
    stopProxy: external.stopProxy,
    getProxy: external.getProxy,
    sendToolResults: command(answers.sendToolResults),
    attachRun: answers.attachRun,
    closeSession,

    listSessions: () => Promise.resolve([...sessions.values()].map(summaryOf)),

    getSession: command(({ sessionId }) => {
      const rt = runtimeOf(sessionId);
      // The summary as the list has it: what the registry adds (a paused replay, a HAR waiting
      // for its entries) must not be undone by a detail fetched after it.
      const detail = { ...rt.data.detail(answers.pendingInfo(rt)), summary: summaryOf(rt) };
      return rt.harChoice ? { ...detail, harEntries: rt.harChoice.entries.map(harEntryPayload) } : detail;
    }),

    getRows: command(({ sessionId, start, count }) => {
      const data = runtimeOf(sessionId).data;
      return { total: data.envelopeCount, start, rows: data.rows(start, count) };
    }),

    filterRows: command(({ sessionId, expression, max }) => {
      const data = runtimeOf(sessionId).data;
      return data.filter(parseFilter(expression), max ?? 10_000);
    }),

    getEnvelope: command(({ sessionId, seq }) => {
      const envelope = runtimeOf(sessionId).data.envelope(seq);
      if (!envelope) throw new Error(`Session ${sessionId} has no envelope ${seq}`);
      return toEnvelopeDetail(envelope);
    }),

    getFrame: command(({ sessionId, leg, seq }) => {
      const frame = runtimeOf(sessionId).data.frame(leg, seq);
      if (!frame) throw new Error(`Session ${sessionId} has no frame ${seq} in leg ${leg}`);
      return frame;
    }),

    getRawBytes: command(({ sessionId, leg, byteStart, byteEnd }) => {
      return runtimeOf(sessionId).data.rawBytes(leg, byteStart, byteEnd, MAX_RAW_BYTES);
    }),

    getBlocks: command(({ sessionId, agent }) => {
      const { data } = runtimeOf(sessionId);
      return data.blocks(agent).map((block) => data.blockSummary(block));
    }),

    getBlock: command(({ sessionId, block }) => {
      const { data } = runtimeOf(sessionId);
      const found = data.block(block);
      if (!found) throw new Error(`Session ${sessionId} has no block ${block}`);
      return toBlockDetail(found, data.inlineHeld(found));
    }),

    getDiagnostics: command(({ sessionId }) => {
      return runtimeOf(sessionId).data.diagnostics().map(toDiagnosticPayload);
    }),

    getBlockChanges: command(({ sessionId, since }) => runtimeOf(sessionId).data.blockChanges(since)),

    getDiagnosticsSince: command(({ sessionId, from, resets }) =>
      runtimeOf(sessionId).data.diagnosticsSince(from, resets),
    ),

    setInline: command(({ sessionId, inline }) => {
      const rt = runtimeOf(sessionId);
      rt.data.setInline(inline);
      announce();
      return summaryOf(rt);
    }),

    getStats: command(({ sessionId }) => {
      return runtimeOf(sessionId).data.stats();
    }),

    diffSessions: command(({ left, right, flattenAgents }) => {
      const sides = [runtimeOf(left), runtimeOf(right)].map((rt) => {
        if (rt.current || rt.loading)
          throw new Error(`Session "${rt.data.title}" is still receiving; diff it once it has ended.`);
        return rt.data.diffInput();
      });
      const diff = diffSessions(
        sides[0] as DiffInput,
        sides[1] as DiffInput,
        flattenAgents === undefined ? {} : { flattenAgents },
      );
      // The diff holds values parsed from both streams: bounded like every other payload.
      return { diff: limitJsonDepth(diff, 2 * STREAM_JSON_DEPTH) as typeof diff, transcript: diffTranscript(diff) };
    }),

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
      const bytes = await withExportProgress(rt, (run) => exportSession(rt.data, kind, absolute, run));
      return { path: absolute, bytes };
    },

    renameSession: command(({ sessionId, title }) => {
      const rt = runtimeOf(sessionId);
      const name = title.replace(/\s+/g, ' ').trim();
      if (name === '') throw new Error('A session needs a name: type one, or press Esc to keep the old one.');
      rt.data.title = name;
      announce();
      return rt.data.summary();
    }),

    downloadSession({ sessionId, kind }) {
      const rt = runtimeOf(sessionId);
      return withExportProgress(rt, (run) => downloadFile(rt.data, rt.actions, kind, deps.createRecorder, run));
    },

    onSessionsChanged: events.sessionsChanged.event,
    onSessionBatch: events.batches.event,
    onLiveStatus: events.liveStatus.event,
    onProgress: events.progress.event,
    onReplayState: events.replayState.event,
    onError: events.errors.event,
    onProxyChanged: events.proxyChanged.event,

    async dispose() {
      await service.stopProxy();
      for (const id of [...sessions.keys()]) await service.closeSession({ sessionId: id });
      await files.dispose();
      await registry.uploads.dispose();
      registry.dispose();
    },
  };
  return service;
}
