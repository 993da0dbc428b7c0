import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { SOCKET_PATH } from '../../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, type InspectorService } from '../../src-shared/contract/inspector';
import { createContractServer } from '../../src-shared/contract/wire';
import { contentSecurityPolicy } from './csp';
import { createBackpressure, STUCK_MS } from '../hosts/backpressure';

/**
 * The browser host: the built renderer and the contract over a WebSocket, on 127.0.0.1 only.
 * Every URL it answers starts with a per-run random token (`/<token>/…`); anything else gets
 * 403, WebSocket upgrades included. The Host header must name the loopback address (no DNS
 * rebinding) and a browser's Origin must be the host itself.
 */

export interface BrowserHostOptions {
  service: InspectorService;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Without `port`: the port to ask for first, and any free one when another process holds
   * it. `npm start` asks for the same one on every start (BROWSER_HOST_PORT): the page's
   * origin is then the same, and what the page keeps in the browser's storage (the theme,
   * the connect form, that the tour was shown) is still there after a restart.
   */
  preferredPort?: number;
  /** Defaults to 32 random bytes, hex. */
  token?: string;
  /** Largest message a client may send (uploads travel as base64). */
  maxMessageBytes?: number;
  /**
   * A page's socket backed up, or none is any more (hosts/backpressure.ts): the host holds
   * row batches back meanwhile (SessionService.holdBatches).
   */
  onBackpressure?: (backedUp: boolean) => void;
  log?: (message: string) => void;
}

export interface BrowserHost {
  /** The page URL, token included: what the user opens. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(32).toString('hex');
  if (!/^[A-Za-z0-9_-]{16,}$/.test(token))
    throw new Error('The access token must be at least 16 letters, digits, - or _');
  const rendererDir = resolve(options.rendererDir);
  const log = options.log ?? (() => {});
  let port = 0;

  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  /** The request path after `/<token>`, or null when the token is missing or wrong. */
  const authorised = (req: IncomingMessage): string | null => {
    if (!allowedHosts().has(req.headers.host ?? '')) return null;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const [, given = '', ...rest] = path.split('/');
    if (!sameToken(given, token)) return null;
    return `/${rest.join('/')}`;
  };

  const securityHeaders = (res: ServerResponse): void => {
    res.setHeader(
      'Content-Security-Policy',
      contentSecurityPolicy({ connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] }),
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cache-Control', 'no-store');
  };

  const refuse = (res: ServerResponse): void => {
    res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end("Forbidden: open the URL the inspector printed (it carries this run's token).\n");
  };

  const serveFile = async (res: ServerResponse, relative: string): Promise<void> => {
    const wanted = relative === '/' || relative === '' ? '/index.html' : decodeURIComponent(relative);
    const path = normalize(join(rendererDir, wanted));
    if (path !== rendererDir && !path.startsWith(rendererDir + sep)) {
      res.writeHead(404).end();
      return;
    }
    let info;
    try {
      info = await stat(path);
    } catch {
      info = null;
    }
    if (!info?.isFile()) {
      if (wanted === '/index.html') {
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(
          `The renderer is not built (no ${join(rendererDir, 'index.html')}). Run \`npm run build\`, then reload.\n`,
        );
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': info.size,
    });
    createReadStream(path).pipe(res);
  };

  const server = createServer((req, res) => {
    securityHeaders(res);
    const relative = authorised(req);
    if (relative === null) {
      log(`refused ${req.method ?? ''} request without a valid token`);
      refuse(res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    serveFile(res, relative).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? 128 * 1024 * 1024 });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const relative = authorised(req);
    const origin = req.headers.origin;
    if (relative !== `/${SOCKET_PATH}` || (origin !== undefined && !allowedOrigins().has(origin))) {
      log('refused a WebSocket without a valid token or from a foreign origin');
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  const backpressure = createBackpressure({
    onChange: (backedUp) => options.onBackpressure?.(backedUp),
    onStuck: (socket) => {
      log(`closed a page's socket that took nothing for ${STUCK_MS / 1000} s (a frozen or paused page)`);
      (socket as WebSocket).terminate();
    },
  });
  const attach = (ws: WebSocket): void => {
    const endpoint = createContractServer(
      INSPECTOR_CONTRACT,
      options.service,
      (message) => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify(message));
        backpressure.sent(ws);
      },
      { onProtocolError: (message) => log(`protocol error: ${message}`) },
    );
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        ws.close(1003, 'text messages only');
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(data.toString('utf8'));
      } catch {
        ws.close(1007, 'messages must be JSON');
        return;
      }
      endpoint.receive(message);
    });
    const detach = (): void => {
      backpressure.closed(ws);
      endpoint.dispose();
    };
    ws.on('close', detach);
    ws.on('error', detach);
  };

  const listen = (on: number): Promise<void> =>
    new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(on, '127.0.0.1', () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  if (options.port === undefined && options.preferredPort !== undefined) {
    try {
      await listen(options.preferredPort);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      await listen(0);
    }
  } else await listen(options.port ?? 0);
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    token,
    close: () =>
      new Promise<void>((resolveClose) => {
        backpressure.dispose();
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
