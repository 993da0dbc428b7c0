import { readFile, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../../src-shared/contract/inspector';
import type { SessionSummary } from '../../src-shared/contract/payloads';
import { createSocketClient } from '../../src-shared/contract/socket-client';
import { deeplyNestedCapture } from '../../src-shared/testing/deep-json';
import { fixturePath } from '../testing/fixtures';
import { SSE_HEADERS, sleep, startLoopbackServer } from '../services/connection/loopback-testing';
import { openSource } from '../services/importers';
import { workspacePaths } from '../services/requests/workspace';
import { createSessionHistory } from '../services/requests/session-history';
import { waitFor } from '../services/sessions/service-testing';
import { startWebApp } from './web-app';
import { withoutFilesIn } from '../hosts/recent-files';
import { hostPerFile } from './browser-host-testing';

const h = hostPerFile();

describe('browser host with the session service in a worker thread', () => {
  it('serves the same contract, decoding off the thread that answers the socket', async () => {
    const threaded = await startWebApp({ rendererDir: h.dir, demoAgent: { url: h.agent.url }, sessionsInWorker: true });
    try {
      const c = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(threaded.url)));
      const lists: SessionSummary[][] = [];
      c.service.onSessionsChanged((l) => lists.push(l));
      const demo = (await c.service.getDemoAgent())!;
      const { id } = await c.service.connect({
        ...demo.defaultRequest,
        body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario: 'subagents', pace: 'fast' }) },
      });
      const done = await waitFor(
        () => lists.at(-1)?.find((s) => s.id === id && s.state === 'complete'),
        'the worker session',
      );
      expect(done.envelopes).toBeGreaterThan(10);
      expect((await c.service.getAppInfo()).host).toBe('browser');
      expect(await c.service.listRecentFiles()).toEqual([]);
      c.close();
    } finally {
      await threaded.close();
    }
  });
});

describe('a page that stops reading its socket', () => {
  it('holds row batches back for every page until it reads again, then every row arrives', async () => {
    // Enough rows for their batches to fill the socket's buffers past the host's high water (8 MB).
    const ROWS = 600_000;
    let text = '';
    for (let i = 0; i < ROWS; i++)
      text += `data: {"type":"text","agent":"a","final":${i % 50 === 49},"delta":"word ${i} "}\n\n`;
    const path = join(h.dir, 'large.sse');
    await writeFile(path, text);
    const app = await startWebApp({ rendererDir: h.dir, demoAgent: false, files: [path] });
    const socket = new WebSocket(socketUrlFor(app.url));
    const paused = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, socket);
    const reading = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)));
    try {
      await Promise.all([paused.ready, reading.ready]);
      // The file named on the command line opened at start; the pages open it again (granted to them by that).
      let id = '';
      let pausedRows = 0;
      let readingRows = 0;
      paused.service.onSessionBatch((b) => b.sessionId === id && (pausedRows += b.columns.receivedAt.length));
      reading.service.onSessionBatch((b) => b.sessionId === id && (readingRows += b.columns.receivedAt.length));
      await Promise.all([paused.service.listSessions(), reading.service.listSessions()]);
      // The page stops taking bytes off its socket, as a browser does for a page paused in DevTools.
      (socket as unknown as { _socket: Socket })._socket.pause();
      id = (await reading.service.openFile({ path })).id;
      const done = await waitFor(
        async () => (await reading.service.listSessions()).find((s) => s.id === id && s.state === 'complete'),
        'the session to load',
        30_000,
      );
      expect(done.envelopes).toBe(ROWS);
      await sleep(500);
      // Held for the page that reads too: the batches wait in the store, not in the host's memory.
      expect(readingRows).toBeLessThan(ROWS);
      (socket as unknown as { _socket: Socket })._socket.resume();
      await waitFor(() => (readingRows >= ROWS && pausedRows >= ROWS ? true : undefined), 'every row', 30_000);
      await sleep(200);
      expect([readingRows, pausedRows]).toEqual([ROWS, ROWS]);
    } finally {
      paused.close();
      reading.close();
      await app.close();
    }
  });
});

describe('quitting the browser host', () => {
  it('keeps a live session still streaming in recent sessions, stopped, with the bytes it received', async () => {
    const server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 2000 && !res.destroyed; i++) {
        res.write(`data: ${JSON.stringify({ type: 'text', agent: 'a', final: false, delta: `${i} ` })}\n\n`);
        await sleep(5);
      }
      res.end();
    });
    const userData = join(h.dir, 'quit-user-data');
    const threaded = await startWebApp({ rendererDir: h.dir, demoAgent: false, sessionsInWorker: true, userData });
    try {
      const { id } = await threaded.service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
      await waitFor(
        async () =>
          (await threaded.service.listSessions()).find(
            (s) => s.id === id && s.state === 'streaming' && s.envelopes > 10,
          ),
        'the session streaming',
      );
    } finally {
      await threaded.close();
      await server.close();
    }
    const history = createSessionHistory({ folder: workspacePaths(userData).recentSessions });
    const [kept] = (await history.list()).sessions;
    expect(kept?.end?.kind).toBe('stopped');
    const recording = await openSource((await history.recordingOf(kept!.id)).path);
    let bytes = 0;
    for await (const chunk of recording.legs[0]!.chunks) bytes += chunk.bytes.length;
    expect(bytes).toBeGreaterThan(10 * 40);
  });
});

describe('deeply nested JSON in the browser host', () => {
  it('keeps the session worker alive: the upload opens, its envelope and block load, later calls work', async () => {
    const threaded = await startWebApp({ rendererDir: h.dir, demoAgent: false, sessionsInWorker: true });
    try {
      const c = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(threaded.url)));
      const lists: SessionSummary[][] = [];
      c.service.onSessionsChanged((l) => lists.push(l));
      const { id } = await c.service.openUpload({
        name: 'deep.sse',
        base64: Buffer.from(deeplyNestedCapture(5000)).toString('base64'),
      });
      const done = await waitFor(
        () => lists.at(-1)?.find((s) => s.id === id && s.state !== 'loading'),
        'the deep session',
      );
      expect(done.envelopes).toBe(3);
      const envelope = await c.service.getEnvelope({ sessionId: id, seq: 1 });
      expect(Object.keys(envelope.extras)).toEqual(['tree']);
      expect((await c.service.getBlock({ sessionId: id, block: 0 })).content).toBe('deep end');
      const next = await c.service.openUpload({
        name: 'json_stream.json.sse',
        base64: (await readFile(fixturePath('json_stream.json.sse'))).toString('base64'),
      });
      expect(next.id).not.toBe(id);
      c.close();
    } finally {
      await threaded.close();
    }
  });
});

describe('recent files in the browser host', () => {
  it('lists a file opened by its path, never the temp copy of an upload', async () => {
    const store = join(h.dir, 'user-data', 'recent-files.json');
    const uploadDir = join(h.dir, 'uploads');
    const withRecent = await startWebApp({
      rendererDir: h.dir,
      demoAgent: { url: h.agent.url },
      recentFilesPath: store,
      sessionDeps: { uploadDir },
      files: [fixturePath('json_stream.json.sse')],
    });
    try {
      const c = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(withRecent.url)));
      const uploaded = await c.service.openUpload({
        name: 'json_stream.json.sse',
        base64: (await readFile(fixturePath('json_stream.json.sse'))).toString('base64'),
      });
      expect(uploaded.source).toMatchObject({ kind: 'file', path: expect.stringContaining(uploadDir) as unknown });
      await c.service.openFile({ path: fixturePath('json_stream.json.sse') });
      const written = await waitFor(
        async () => (await readFile(store, 'utf8').catch(() => '')) || undefined,
        'the recent-files store',
      );
      expect(JSON.parse(written)).toEqual([fixturePath('json_stream.json.sse')]);
      expect(await c.service.listRecentFiles()).toEqual([fixturePath('json_stream.json.sse')]);
      c.close();
    } finally {
      await withRecent.close();
    }
  });
});

describe('withoutFilesIn', () => {
  it('neither adds nor lists files inside the upload folder', async () => {
    const stored = ['/tmp/up/1a-x.sse', '/home/me/run.json.sse', '/tmp/upper/y.sse'];
    const added: string[] = [];
    const recent = withoutFilesIn(
      { list: () => Promise.resolve(stored), add: (path) => Promise.resolve(void added.push(path)) },
      '/tmp/up',
    );
    expect(await recent.list()).toEqual(['/home/me/run.json.sse', '/tmp/upper/y.sse']);
    await recent.add('/tmp/up/2b-z.sse');
    await recent.add('/tmp/upper/z.sse');
    expect(added).toEqual(['/tmp/upper/z.sse']);
  });
});
