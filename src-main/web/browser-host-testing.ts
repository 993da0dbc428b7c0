import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../../src-shared/contract/inspector';
import { createSocketClient, type SocketClient } from '../../src-shared/contract/socket-client';
import { fixturePath } from '../testing/fixtures';
import { startDemoAgent, type DemoAgent } from '../services/demo-agent/index';
import { startWebApp, type WebApp } from './web-app';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What a test file of the browser host shares, started before its tests and stopped after them. */
export interface HostFixture {
  /** A renderer folder (a page and its script). */
  dir: string;
  agent: DemoAgent;
  /** The host, serving `dir` with the demo agent, a file named on its command line (example_1.json.sse). */
  app: WebApp;
  /** A GET to the host, its reply read whole. */
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  /** A contract client over a WebSocket to the host. */
  client(): SocketClient<typeof INSPECTOR_CONTRACT>;
}

export function hostPerFile(): HostFixture {
  const h = {
    get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: h.app.host.port, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    },
    client(): SocketClient<typeof INSPECTOR_CONTRACT> {
      return createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(h.app.url)), {
        onProtocolError: (m) => console.error(m),
      });
    },
  } as HostFixture;
  beforeAll(async () => {
    h.dir = await mkdtemp(join(tmpdir(), 'inspector-web-'));
    await mkdir(join(h.dir, 'assets'));
    await writeFile(
      join(h.dir, 'index.html'),
      '<!doctype html><title>Agent Stream Inspector</title><script type="module" src="./assets/app.js"></script>',
    );
    await writeFile(join(h.dir, 'assets', 'app.js'), 'console.log("app")');
    h.agent = await startDemoAgent({ pace: 'fast' });
    h.app = await startWebApp({
      rendererDir: h.dir,
      demoAgent: { url: h.agent.url },
      version: '1.2.3',
      files: [fixturePath('example_1.json.sse')],
    });
  });
  afterAll(async () => {
    await h.app.close();
    await h.agent.close();
    await rm(h.dir, { recursive: true, force: true });
  });
  return h;
}

/** Opens a WebSocket and reports how the server answered the upgrade. */
export function upgrade(url: string, headers: Record<string, string> = {}): Promise<'open' | number> {
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
