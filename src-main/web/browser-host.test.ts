import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { type InspectorService } from '../../src-shared/contract/inspector';
import type { SessionBatch, SessionSummary } from '../../src-shared/contract/payloads';
import { fixturePath } from '../testing/fixtures';
import { waitFor } from '../services/sessions/service-testing';
import { hostPerFile, upgrade } from './browser-host-testing';
import { startWebApp, type WebAppOptions } from './web-app';

const h = hostPerFile();

describe('browser host: what it refuses', () => {
  it('serves the page only under the per-run token, with a strict CSP', async () => {
    const page = await h.get(`/${h.app.host.token}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Agent Stream Inspector</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${h.app.host.port}`);
    const asset = await h.get(`/${h.app.host.token}/assets/app.js`);
    expect(asset).toMatchObject({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });

  it.each([
    ['no token', '/'],
    ['no token, asset path', '/assets/app.js'],
    ['a wrong token', `/${'0'.repeat(64)}/`],
    ['a token prefix', '/abc/'],
  ])('answers 403 to %s', async (_name, path) => {
    expect((await h.get(path)).status).toBe(403);
  });

  it('answers 403 to a request naming another host (DNS rebinding)', async () => {
    expect((await h.get(`/${h.app.host.token}/`, { Host: 'evil.example:80' })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    const reply = await h.get(`/${h.app.host.token}/..%2f..%2fetc%2fpasswd`);
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('root:');
  });

  it('refuses WebSockets without the token or from a foreign origin', async () => {
    const base = `ws://127.0.0.1:${h.app.host.port}`;
    expect(await upgrade(`${base}/ws`)).toBe(403);
    expect(await upgrade(`${base}/${'f'.repeat(64)}/ws`)).toBe(403);
    expect(await upgrade(`${base}/${h.app.host.token}/other`)).toBe(403);
    expect(await upgrade(socketUrlFor(h.app.url), { Origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(socketUrlFor(h.app.url), { Origin: `http://127.0.0.1:${h.app.host.port}` })).toBe('open');
  });
});

describe('browser host: the contract end to end over a real WebSocket', () => {
  it('answers commands, validates arguments, and rejects with the service message', async () => {
    const c = h.client();
    await c.ready;
    const service: InspectorService = c.service;
    expect(await service.getAppInfo()).toMatchObject({
      host: 'browser',
      version: '1.2.3',
      capabilities: { upload: true, fileDialogs: false },
    });
    const demo = await service.getDemoAgent();
    expect(demo?.runUrl).toBe(`${h.agent.url}/agent/run`);
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
    const c = h.client();
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
    const c = h.client();
    await c.ready;
    const pending = c.service.listSessions();
    c.close();
    await expect(pending).rejects.toThrow(/connection to the inspector closed/);
    await expect(c.service.listSessions()).rejects.toThrow(/closed/);
  });
});

describe('browser host: the page reads and writes only what the user chose', () => {
  const SECRET = 'root:$6$canary-shadow-7c1d';

  it('refuses to open a file the user did not choose, echoing nothing of it', async () => {
    const shadow = join(h.dir, 'shadow');
    await writeFile(shadow, `${SECRET}:19000:0:99999:7:::\n`);
    const c = h.client();
    const before = (await c.service.listSessions()).length;
    for (const path of [
      shadow,
      '/etc/shadow',
      '/etc/passwd',
      `${h.dir}/../${h.dir.split('/').at(-1)}/shadow`,
      'shadow',
    ]) {
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
    const c = h.client();
    const again = await c.service.openFile({ path: fixturePath('example_1.json.sse') });
    expect(again.source).toMatchObject({ kind: 'file', path: fixturePath('example_1.json.sse') });
    c.close();
  });

  it('refuses every write to a path the page names: save, export, record-to and proxy recordings', async () => {
    const c = h.client();
    const [session] = await c.service.listSessions();
    const target = (name: string): string => join(h.dir, name);
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
    const c = h.client();
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

describe('browser host: its port', () => {
  const app = (options: Partial<WebAppOptions>) =>
    startWebApp({ rendererDir: h.dir, demoAgent: { url: h.agent.url }, ...options });

  /** A port no process holds now: one the system handed out and took back. */
  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  it('listens on the preferred port when it is free, and on another when a process holds it', async () => {
    const preferred = await freePort();
    const start = () => app({ preferredPort: preferred });
    const first = await start();
    try {
      expect(first.host.port).toBe(preferred);
      expect(first.url).toContain(`http://127.0.0.1:${preferred}/`);
      // The same origin on the next start is what keeps the page's storage; taken, any port.
      const second = await start();
      try {
        expect(second.host.port).not.toBe(preferred);
        expect(second.host.port).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it('fails on an explicit port that a process holds, instead of moving elsewhere', async () => {
    const port = h.app.host.port;
    await expect(app({ port, preferredPort: port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
