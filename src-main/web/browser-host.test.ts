import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES, type InspectorService } from '../../src-shared/contract/inspector';
import type { SessionBatch, SessionSummary } from '../../src-shared/contract/payloads';
import { createSocketClient, type SocketClient } from '../../src-shared/contract/socket-client';
import { deeplyNestedCapture } from '../../src-shared/testing/deep-json';
import { fixturePath } from '../testing/fixtures';
import { SSE_HEADERS, sleep, startLoopbackServer } from '../services/connection/loopback-testing';
import { openSource } from '../services/importers';
import { workspacePaths } from '../services/requests/workspace';
import { createSessionHistory } from '../services/requests/session-history';
import { startDemoAgent, type DemoAgent } from '../services/demo-agent/index';
import { waitFor } from '../services/sessions/service-testing';
import { startWebApp, type WebApp } from './web-app';
import { withoutFilesIn } from '../hosts/recent-files';

let dir: string;
let agent: DemoAgent;
let app: WebApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-web-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><title>Agent Stream Inspector</title><script type="module" src="./assets/app.js"></script>',
  );
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log("app")');
  agent = await startDemoAgent({ pace: 'fast' });
  app = await startWebApp({
    rendererDir: dir,
    demoAgent: { url: agent.url },
    version: '1.2.3',
    files: [fixturePath('example_1.json.sse')],
  });
});

afterAll(async () => {
  await app.close();
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: app.host.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket and reports how the server answered the upgrade. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => {});
  });
}

function client(): SocketClient<typeof INSPECTOR_CONTRACT> {
  return createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)), {
    onProtocolError: (m) => console.error(m),
  });
}

describe('browser host: what it refuses', () => {
  it('serves the page only under the per-run token, with a strict CSP', async () => {
    const page = await get(`/${app.host.token}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Agent Stream Inspector</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${app.host.port}`);
    const asset = await get(`/${app.host.token}/assets/app.js`);
    expect(asset).toMatchObject({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });

  it.each([
    ['no token', '/'],
    ['no token, asset path', '/assets/app.js'],
    ['a wrong token', `/${'0'.repeat(64)}/`],
    ['a token prefix', '/abc/'],
  ])('answers 403 to %s', async (_name, path) => {
    expect((await get(path)).status).toBe(403);
  });

  it('answers 403 to a request naming another host (DNS rebinding)', async () => {
    expect((await get(`/${app.host.token}/`, { Host: 'evil.example:80' })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    const reply = await get(`/${app.host.token}/..%2f..%2fetc%2fpasswd`);
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('root:');
  });

  it('refuses WebSockets without the token or from a foreign origin', async () => {
    const base = `ws://127.0.0.1:${app.host.port}`;
    expect(await upgrade(`${base}/ws`)).toBe(403);
    expect(await upgrade(`${base}/${'f'.repeat(64)}/ws`)).toBe(403);
    expect(await upgrade(`${base}/${app.host.token}/other`)).toBe(403);
    expect(await upgrade(socketUrlFor(app.url), { Origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(socketUrlFor(app.url), { Origin: `http://127.0.0.1:${app.host.port}` })).toBe('open');
  });
});

describe('browser host: the contract end to end over a real WebSocket', () => {
  it('answers commands, validates arguments, and rejects with the service message', async () => {
    const c = client();
    await c.ready;
    const service: InspectorService = c.service;
    expect(await service.getAppInfo()).toMatchObject({
      host: 'browser',
      version: '1.2.3',
      capabilities: { upload: true, fileDialogs: false },
    });
    const demo = await service.getDemoAgent();
    expect(demo?.runUrl).toBe(`${agent.url}/agent/run`);
    expect(demo?.scenarios.map((s) => s.id)).toContain('frontend-tools');
    await expect(service.connect({ url: 42 } as never)).rejects.toThrow(
      /Invalid argument for connect: arg\.url: expected a string, got number 42/,
    );
    await expect(service.getSession({ sessionId: 'missing' })).rejects.toThrow(/Unknown session 'missing'/);
    await expect(service.showOpenDialog()).rejects.toThrow(/no native file dialog/);
    c.close();
    await c.closed;
  });

  it('streams a demo-agent session as batches and answers its frontend tool, over the socket', async () => {
    const c = client();
    const service = c.service;
    const batches: SessionBatch[] = [];
    const lists: SessionSummary[][] = [];
    const offBatch = service.onSessionBatch((b) => batches.push(b));
    service.onSessionsChanged((l) => lists.push(l));
    const demo = (await service.getDemoAgent())!;

    const summary = await service.connect({
      ...demo.defaultRequest,
      url: `${demo.runUrl}?format=xml`,
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }) },
    });
    const paused = await waitFor(() => lists.at(-1)?.find((s) => s.id === summary.id && s.awaitingTools), 'the pause');
    expect(paused.format).toBe('xml');
    const rows = batches.filter((b) => b.sessionId === summary.id).flatMap((b) => b.rows);
    expect(rows.map((r) => r.seq)).toEqual([...Array(paused.envelopes).keys()]);

    const detail = await service.getSession({ sessionId: summary.id });
    const results = detail.pendingTools!.tools.map((t) => ({ tool_use_id: t.toolUseId, content: 'yes' }));
    expect(await service.sendToolResults({ sessionId: summary.id, results })).toEqual({ leg: 1 });
    const done = await waitFor(
      () => lists.at(-1)?.find((s) => s.id === summary.id && s.legs === 2 && s.state === 'complete'),
      'the continuation',
    );
    expect(done.awaitingTools).toBe(false);

    // After unsubscribing, no more batches arrive for new sessions.
    offBatch();
    const before = batches.length;
    const second = await service.openFile({ path: fixturePath('example_1.json.sse') });
    await waitFor(() => lists.at(-1)?.find((s) => s.id === second.id && s.state === 'complete'), 'file session');
    expect(batches.length).toBe(before);
    c.close();
  });

  it('rejects pending calls when the socket closes', async () => {
    const c = client();
    await c.ready;
    const pending = c.service.listSessions();
    c.close();
    await expect(pending).rejects.toThrow(/connection to the inspector closed/);
    await expect(c.service.listSessions()).rejects.toThrow(/closed/);
  });
});

describe('browser host with the session service in a worker thread', () => {
  it('serves the same contract, decoding off the thread that answers the socket', async () => {
    const threaded = await startWebApp({ rendererDir: dir, demoAgent: { url: agent.url }, sessionsInWorker: true });
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
    const userData = join(dir, 'quit-user-data');
    const threaded = await startWebApp({ rendererDir: dir, demoAgent: false, sessionsInWorker: true, userData });
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
    const threaded = await startWebApp({ rendererDir: dir, demoAgent: false, sessionsInWorker: true });
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
    const store = join(dir, 'user-data', 'recent-files.json');
    const uploadDir = join(dir, 'uploads');
    const withRecent = await startWebApp({
      rendererDir: dir,
      demoAgent: { url: agent.url },
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

describe('browser host: the page reads and writes only what the user chose', () => {
  const SECRET = 'root:$6$canary-shadow-7c1d';

  it('refuses to open a file the user did not choose, echoing nothing of it', async () => {
    const shadow = join(dir, 'shadow');
    await writeFile(shadow, `${SECRET}:19000:0:99999:7:::\n`);
    const c = client();
    const before = (await c.service.listSessions()).length;
    for (const path of [shadow, '/etc/shadow', '/etc/passwd', `${dir}/../${dir.split('/').at(-1)}/shadow`, 'shadow']) {
      const refusal = await c.service.openFile({ path }).then(
        () => 'opened',
        (error: unknown) => (error as Error).message,
      );
      expect(refusal).toMatch(
        /^Refused to open ".*": the inspector opens only files you chose\. Pick it with the Open button/,
      );
      expect(refusal).not.toContain('canary-shadow');
      expect(refusal).not.toContain('root:');
    }
    expect((await c.service.listSessions()).length).toBe(before);
    c.close();
  });

  it('opens a file named on the command line, and again by its path', async () => {
    const c = client();
    const again = await c.service.openFile({ path: fixturePath('example_1.json.sse') });
    expect(again.source).toMatchObject({ kind: 'file', path: fixturePath('example_1.json.sse') });
    c.close();
  });

  it('refuses every write to a path the page names: save, export, record-to and proxy recordings', async () => {
    const c = client();
    const [session] = await c.service.listSessions();
    const target = (name: string): string => join(dir, name);
    await expect(c.service.saveRecording({ sessionId: session!.id, path: target('saved.recording') })).rejects.toThrow(
      /^Refused to write ".*saved\.recording": a recording goes only where you choose in the inspector's own save dialog or download/,
    );
    await expect(
      c.service.exportSession({ sessionId: session!.id, kind: 'raw-sse', path: '/etc/cron.d/evil' }),
    ).rejects.toThrow(/^Refused to write "\/etc\/cron\.d\/evil": an export goes only/);
    const demo = (await c.service.getDemoAgent())!;
    await expect(c.service.connect({ ...demo.defaultRequest, recordTo: target('live.recording') })).rejects.toThrow(
      /^Refused to write ".*live\.recording"/,
    );
    await expect(c.service.startProxy({ port: 0, target: demo.baseUrl, recordDir: target('proxied') })).rejects.toThrow(
      /^Refused to write ".*proxied": a proxy recording goes only/,
    );
    expect(await c.service.getProxy()).toBeNull();
    for (const name of ['saved.recording', 'live.recording', 'proxied'])
      await expect(readFile(target(name))).rejects.toThrow(/ENOENT/);
    c.close();
  });
});

describe('browser host: a page holding the token cannot send secrets where the user did not say', () => {
  it('refuses to fill a secret into a request to another machine, or to hand it back as curl for one', async () => {
    const SECRET = 'canary-secret-to-remote-5e0a';
    const c = client();
    await c.service.saveEnvironment({ name: 'Stolen', variables: [{ name: 'token', secret: true, value: SECRET }] });
    // TEST-NET-1 (RFC 5737): nothing is sent; the refusal comes first.
    const request = {
      method: 'GET',
      url: 'http://192.0.2.1:9/collect',
      headers: [['Authorization', 'Bearer {{token}}']] as [string, string][],
    };
    const before = (await c.service.listSessions()).length;
    const refused = await c.service.connect(request).then(
      () => 'connected',
      (error: unknown) => (error as Error).message,
    );
    expect(refused).toMatch(
      /^Refused to send \{\{token\}\} to http:\/\/192\.0\.2\.1:9: that origin was not approved for secrets\. The browser host sends secrets only to this machine and to the origins named when it starts: npm start -- --allow-secrets-to ORIGIN\.$/,
    );
    await expect(c.service.resolveRequest({ request, mode: 'with-secrets' })).rejects.toThrow(
      /^Refused to send \{\{token\}\}/,
    );
    expect((await c.service.listSessions()).length).toBe(before);
    c.close();
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
