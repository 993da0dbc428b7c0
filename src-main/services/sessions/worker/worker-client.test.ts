import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorEvent, SessionSummary } from '../../../../src-shared/contract/payloads';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { deeplyNestedCapture } from '../../../../src-shared/testing/deep-json';
import { SSE_HEADERS, sleep, startLoopbackServer, type LoopbackServer } from '../../connection/loopback-testing';
import { fixturePath, readFixture } from '../../../testing/fixtures';
import { createSessionHistory, trackEndedSessions } from '../../requests/session-history';
import { spoolPath } from '../spool-folders';
import { runCli } from '../../../cli/test-io';
import { startSessionWorker, type SessionWorker, type SessionWorkerOptions } from './worker-client';

let worker: SessionWorker | undefined;
let server: LoopbackServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await worker?.dispose();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  worker = server = dir = undefined;
});

const start = (options: Partial<SessionWorkerOptions> = {}): SessionWorker =>
  (worker = startSessionWorker({
    entry: new URL('./session-worker.ts', import.meta.url),
    fromSource: true,
    demoAgentUrl: 'http://127.0.0.1:1',
    ...options,
  }));

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const settled = (service: SessionWorker['service'], id: string): Promise<SessionSummary> =>
  until(
    async () =>
      (await service.listSessions()).find(
        (s) => s.id === id && !['connecting', 'streaming', 'loading'].includes(s.state),
      ),
    `session ${id} to settle`,
  );

describe('the session service in a worker thread', () => {
  it('decodes a file off the main thread and answers the same contract', async () => {
    const service = start().service;
    let rows = 0;
    service.onSessionBatch((b) => (rows += b.columns.receivedAt.length));
    const { id } = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    const expected = decodeBytes(readFixture('multi_agent.json.sse')).envelopes.length;
    await until(() => (rows >= expected ? true : undefined), 'the rows');
    expect(rows).toBe(expected);
    const page = await service.getRows({ sessionId: id, start: 0, count: 3 });
    expect(page.rows).toHaveLength(3);
    expect((await service.getDemoAgent())?.runUrl).toBe('http://127.0.0.1:1/agent/run');
    await expect(service.getAppInfo()).rejects.toThrow(/answered by the host/);
    await expect(service.getSession({ sessionId: 'nope' })).rejects.toThrow(/Unknown session/);
  });

  it('survives deeply nested JSON: the session opens, its envelope crosses as JSON text below 32 levels, later calls work', async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-deep-'));
    await writeFile(join(dir, 'deep.sse'), deeplyNestedCapture(5000));
    const service = start().service;
    const { id } = await service.openFile({ path: join(dir, 'deep.sse') });
    expect((await settled(service, id)).envelopes).toBe(3);
    const envelope = await service.getEnvelope({ sessionId: id, seq: 0 });
    let inner: unknown = envelope.extras['nested'];
    for (let depth = 1; depth < 32; depth++) inner = (inner as unknown[])[0];
    expect(inner).toBe(`${'['.repeat(5000 - 31)}1${']'.repeat(5000 - 31)}`);
    const block = await service.getBlock({ sessionId: id, block: 0 });
    expect(block.content).toBe('deep end');
    expect((await service.openFile({ path: fixturePath('json_stream.json.sse') })).id).not.toBe(id);
  });

  it('restarts a worker that fails, says so, and reloads its file and live sessions from their bytes under the same ids', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture('json_stream.json.sse'));
    });
    dir = await mkdtemp(join(tmpdir(), 'worker-spool-'));
    const sw = start({ spoolDir: dir });
    const service = sw.service;
    const restarts: ErrorEvent[] = [];
    service.onError((event) => event.kind === 'worker-restart' && restarts.push(event));
    const file = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    const live = await service.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
    const before = await Promise.all([settled(service, file.id), settled(service, live.id)]);
    // A replay paused at its start comes back as the whole stream it plays, under its own id.
    const replay = await service.startReplay({ sessionId: live.id, paused: true });
    const firstThread = sw.thread;

    await firstThread.terminate();
    const event = await until(() => restarts[0], 'the restart event');
    expect(sw.thread).not.toBe(firstThread);
    expect(event.message).toMatch(
      /The session worker stopped \(.*\) and was restarted; 3 sessions reloaded from their bytes on disk/,
    );

    const after = await Promise.all([settled(service, file.id), settled(service, live.id)]);
    expect(after.map((s) => [s.id, s.title, s.envelopes])).toEqual(before.map((s) => [s.id, s.title, s.envelopes]));
    const replayed = await settled(service, replay.id);
    expect([replayed.title, replayed.envelopes]).toEqual([replay.title, before[1]?.envelopes]);
    const rows = await service.getRows({ sessionId: live.id, start: 0, count: 5 });
    expect(rows.rows).toHaveLength(5);
    expect((await service.getBlocks({ sessionId: file.id })).length).toBeGreaterThan(0);
  });

  it('reloads each file session as it was opened: the HAR entries chosen, the in-text mode, the failures of the check report that opened it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-reopen-'));
    const names = ['example_1.json.sse', 'error_midstream.json.sse'];
    for (const name of names) await writeFile(join(dir, name), readFixture(name));
    await runCli(['check', '--expect', 'status == "done"', '--junit', 'report.xml', ...names], { cwd: dir });
    const sse = (name: string) => ({
      request: { method: 'POST', url: `http://h/${name}`, headers: [] },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { mimeType: 'text/event-stream', text: Buffer.from(readFixture(name)).toString() },
      },
    });
    const entries = [sse('example_1.json.sse'), sse('multi_agent.json.sse')];
    await writeFile(join(dir, 'devtools.har'), JSON.stringify({ log: { creator: { name: 'DevTools' }, entries } }));
    const sw = start({ spoolDir: join(dir, 'spool') });
    const service = sw.service;
    const restarts: ErrorEvent[] = [];
    service.onError((event) => event.kind === 'worker-restart' && restarts.push(event));

    const reported = await service.openFile({ path: join(dir, 'report.xml') });
    const har = await service.openFile({ path: join(dir, 'devtools.har') });
    expect(har.choosingHarEntries).toBe(true);
    await service.openHarEntries({ sessionId: har.id, entries: [1] });
    const plain = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    await service.setInline({ sessionId: plain.id, inline: { mode: 'off', tools: [] } });
    const describe = async (id: string) => {
      const summary = await settled(service, id);
      const findings = await service.getDiagnostics({ sessionId: id });
      return {
        source: summary.source,
        envelopes: summary.envelopes,
        inline: summary.inline?.mode,
        checks: findings.filter((d) => d.rule === 'recording.check-failed').map((d) => d.message),
      };
    };
    const ids = [reported.id, har.id, plain.id];
    const before = await Promise.all(ids.map(describe));
    expect(before[0]?.checks).toEqual([expect.stringMatching(/^The check status == "done" failed \(report\.xml\)/)]);
    expect(before[0]?.source).toMatchObject({ report: join(dir, 'report.xml') });
    expect(before[1]?.source).toMatchObject({ entries: [1] });
    expect(before[1]?.envelopes).toBe(decodeBytes(readFixture('multi_agent.json.sse')).envelopes.length);
    expect(before[2]?.inline).toBe('off');

    await sw.thread.terminate();
    await until(() => restarts[0], 'the restart event');
    expect(restarts[0]?.message).toMatch(/3 sessions reloaded/);
    expect(await Promise.all(ids.map(describe))).toEqual(before);
  });

  it('reloads a live run decoded again as it was: the dialect chosen, and the run its bytes came from', async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-decode-again-'));
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture('example_1.json.sse'));
    });
    const sw = start({ spoolDir: dir });
    const service = sw.service;
    const restarts: ErrorEvent[] = [];
    service.onError((event) => event.kind === 'worker-restart' && restarts.push(event));
    const url = `${server.url}/agent/run`;
    const live = await service.connect({ url, method: 'GET', headers: [] });
    await settled(service, live.id);
    const again = await service.decodeAgainAs({ sessionId: live.id, format: 'json-events' });
    const before = await settled(service, again.id);
    expect(before).toMatchObject({ format: 'json-events', source: { copyOf: { method: 'GET', url } } });

    await sw.thread.terminate();
    await until(() => restarts[0], 'the restart event');
    const after = await settled(service, again.id);
    expect([after.format, after.source, after.envelopes]).toEqual([before.format, before.source, before.envelopes]);
  });

  it('a reloaded session still owns its upload: closing it removes the file, closing a replay of it does not', async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-upload-'));
    const sw = start({ spoolDir: dir });
    const service = sw.service;
    const restarts: ErrorEvent[] = [];
    service.onError((event) => event.kind === 'worker-restart' && restarts.push(event));
    const upload = await service.openUpload({
      name: 'example_1.json.sse',
      base64: Buffer.from(readFixture('example_1.json.sse')).toString('base64'),
    });
    const uploaded = await settled(service, upload.id);
    const path = uploaded.source.kind === 'file' ? uploaded.source.path : '';
    expect(path.startsWith(dir)).toBe(true);
    const replay = await service.startReplay({ sessionId: upload.id, instant: true });
    await settled(service, replay.id);

    await sw.thread.terminate();
    await until(() => restarts[0], 'the restart event');
    await settled(service, upload.id);
    await settled(service, replay.id);
    await service.closeSession({ sessionId: replay.id });
    expect(existsSync(path)).toBe(true);
    await service.closeSession({ sessionId: upload.id });
    expect(existsSync(path)).toBe(false);
  });

  it('holds row batches back while the host asks, in the worker that replaces a failed one too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'worker-hold-'));
    const sw = start({ spoolDir: dir });
    const service = sw.service;
    const restarts: ErrorEvent[] = [];
    service.onError((event) => event.kind === 'worker-restart' && restarts.push(event));
    let rows = 0;
    service.onSessionBatch((b) => (rows += b.columns.receivedAt.length));
    const expected = decodeBytes(readFixture('multi_agent.json.sse')).envelopes.length;
    const quiet = () => new Promise((resolve) => setTimeout(resolve, 150));

    sw.holdBatches(true);
    const { id } = await service.openFile({ path: fixturePath('multi_agent.json.sse') });
    expect((await settled(service, id)).envelopes).toBe(expected);
    await quiet();
    expect(rows).toBe(0);
    await sw.thread.terminate();
    await until(() => restarts[0], 'the restart event');
    await settled(service, id);
    await quiet();
    expect(rows).toBe(0);
    sw.holdBatches(false);
    await until(() => (rows >= expected ? true : undefined), 'the rows');
    await quiet();
    expect(rows).toBe(expected);
  });

  it('keeps a running live session the user closes in recent sessions, however late the host reads the sessions list', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 1000 && !res.destroyed; i++) {
        res.write(`data: ${JSON.stringify({ type: 'text', agent: 'a', final: false, delta: `${i} ` })}\n\n`);
        await sleep(10);
      }
      res.end();
    });
    dir = await mkdtemp(join(tmpdir(), 'worker-close-'));
    const spoolDir = join(dir, 'spool');
    const sw = start({ spoolDir });
    const history = createSessionHistory({ folder: join(dir, 'recent') });
    const errors: unknown[] = [];
    const stopTracking = trackEndedSessions(
      sw.service.onSessionsChanged,
      history,
      (s) => ({ path: spoolPath(spoolDir, s.id), spool: true }),
      undefined,
      (e) => errors.push(e),
    );
    try {
      const { id } = await sw.service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
      const spool = spoolPath(spoolDir, id);
      await until(
        async () =>
          (await sw.service.listSessions()).find((s) => s.id === id && s.state === 'streaming' && s.envelopes > 0)
            ? true
            : undefined,
        'the session streaming',
      );
      const closed = sw.service.closeSession({ sessionId: id });
      // The host's thread is busy (as the main process may be) until the worker removed the
      // spool file, or long enough for it to have: the list that says the session ended is read only then.
      const blocked = new Int32Array(new SharedArrayBuffer(4));
      for (const deadline = Date.now() + 2000; existsSync(spool) && Date.now() < deadline;)
        Atomics.wait(blocked, 0, 0, 5);
      await closed;
      const kept = await until(
        async () => (await history.list()).sessions.find((s) => s.id === id),
        `session ${id} kept`,
      );
      expect(kept.end?.kind).toBe('stopped');
      expect((await stat((await history.recordingOf(id)).path)).size).toBeGreaterThan(0);
      expect(existsSync(spool)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await stopTracking();
    }
  });

  it('gives up after too many failures, and disposing still completes with the worker dead', async () => {
    const sw = start({ maxRestarts: 0 });
    const events: ErrorEvent[] = [];
    sw.service.onError((event) => events.push(event));
    await sw.service.listSessions();
    await sw.thread.terminate();
    await until(() => events[0], 'the give-up event');
    expect(events[0]?.message).toMatch(/is not restarted again/);
    await expect(sw.service.listSessions()).rejects.toThrow(/stopped/);
    const started = Date.now();
    await sw.dispose();
    expect(Date.now() - started).toBeLessThan(1000);
    worker = undefined;
  });
});
