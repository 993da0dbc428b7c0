import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { withheldBody } from '../../../src-shared/recording/redact';
import type { HeaderList, RecordedRequest, RecordedResponse } from '../../../src-shared/recording/types';

/**
 * A reverse proxy on 127.0.0.1 that forwards every request to one target unchanged and streams
 * every response back as it arrives. It is what a frontend under test talks to instead of its
 * agent server, so the inspector sees exactly what the frontend receives.
 *
 * Bytes are piped (`upstream.pipe(client)`): a chunk is written to the client as soon as it is
 * read, and when the client's socket buffer is full the pipe pauses the upstream read, so a
 * slow frontend slows the server instead of growing memory. Observers (`tap`) only look at the
 * chunks on their way; they never hold the stream up.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1): they belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Request bodies kept for the recording (the whole body is always forwarded). */
export const MAX_RECORDED_BODY = 1024 * 1024;

export interface ExchangeTap {
  chunk(bytes: Uint8Array, receivedAt: number): void;
  /** The response ended (`done`), failed upstream (`error`) or the client went away (`aborted`). */
  end(outcome: { reason: 'done' | 'error' | 'aborted'; message?: string }): void;
}

/** One forwarded request as listed: every exchange, stream or not. */
export interface ProxyExchange {
  id: number;
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  startedAt: number;
  status?: number;
  contentType?: string;
  /** Response body bytes forwarded so far. */
  bytes: number;
  endedAt?: number;
  /** How it ended when not normally: the upstream failed, the client went away. */
  error?: string;
  /** The session that records it (event streams). */
  sessionId?: string;
}

export interface ReverseProxyOptions {
  target: URL;
  /** Port to listen on (0: any free one). Always on 127.0.0.1. */
  port: number;
  now?: () => number;
  /**
   * A response head arrived: return a tap to observe its body (event streams), or null. The
   * request carries its body as far as it was received (complete for an ordinary POST).
   */
  onResponse?: (request: RecordedRequest, response: RecordedResponse, exchange: ProxyExchange) => ExchangeTap | null;
  /** An exchange started, got its head, or ended (for the list of requests). */
  onExchange?: (exchange: ProxyExchange) => void;
}

export interface ReverseProxy {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startReverseProxy(options: ReverseProxyOptions): Promise<ReverseProxy> {
  const { target } = options;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`The proxy target must be an http(s) URL, not ${target.protocol}`);
  const now = options.now ?? (() => Date.now());
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const basePath = target.pathname.replace(/\/$/, '');
  let nextId = 1;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const exchange: ProxyExchange = { id: nextId++, method: req.method ?? 'GET', path: req.url ?? '/', startedAt: now(), bytes: 0 };
    options.onExchange?.(exchange);
    const headers = forwardHeaders(req.rawHeaders);
    headers.push(['host', target.host]);
    const url = new URL(`${basePath}${exchange.path.startsWith('/') ? exchange.path : `/${exchange.path}`}`, target.origin);
    const body: Buffer[] = [];
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      if (bodyBytes < MAX_RECORDED_BODY) body.push(chunk.subarray(0, MAX_RECORDED_BODY - bodyBytes));
      bodyBytes += chunk.length;
    });
    const upstream = (secure ? httpsRequest : httpRequest)(url, { method: exchange.method, headers: toOutgoing(headers), agent });
    let tap: ExchangeTap | null = null;
    let ended = false;
    const finish = (reason: 'done' | 'error' | 'aborted', message?: string): void => {
      if (ended) return;
      ended = true;
      exchange.endedAt = now();
      if (message !== undefined) exchange.error = message;
      tap?.end(message === undefined ? { reason } : { reason, message });
      options.onExchange?.(exchange);
    };

    upstream.on('response', (upstreamRes) => {
      const responseHeaders = forwardHeaders(upstreamRes.rawHeaders);
      exchange.status = upstreamRes.statusCode ?? 502;
      const contentType = upstreamRes.headers['content-type'];
      if (contentType !== undefined) exchange.contentType = contentType;
      res.writeHead(exchange.status, upstreamRes.statusMessage, toOutgoing(responseHeaders));
      // Event streams must reach the client at once: send the head now, no Nagle delay.
      res.flushHeaders();
      res.socket?.setNoDelay(true);
      const recorded: RecordedRequest = {
        method: exchange.method,
        url: url.href,
        headers: headers.filter(([name]) => name !== 'host'),
        // A cut body could not be redacted reliably (it may end inside a secret): it is withheld, saying so.
        body: bodyBytes === 0 ? null : bodyBytes > MAX_RECORDED_BODY ? withheldBody(`${bodyBytes} bytes, over the ${MAX_RECORDED_BODY} bytes the proxy keeps of a request body; it was forwarded whole`) : Buffer.concat(body).toString('utf8'),
      };
      tap = options.onResponse?.(recorded, { status: exchange.status, statusText: upstreamRes.statusMessage ?? '', headers: responseHeaders }, exchange) ?? null;
      options.onExchange?.(exchange);
      // Piped first: each chunk goes to the client before any observer sees it.
      upstreamRes.pipe(res);
      upstreamRes.on('data', (chunk: Buffer) => {
        exchange.bytes += chunk.length;
        tap?.chunk(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length), now());
      });
      upstreamRes.on('end', () => finish('done'));
      upstreamRes.on('error', (error) => {
        finish('error', `The server's response broke off: ${error.message}`);
        res.destroy();
      });
      upstreamRes.on('aborted', () => {
        finish('error', "The server's response broke off");
        res.destroy();
      });
    });
    upstream.on('error', (error) => {
      const message = `The proxy could not reach ${target.origin}: ${error.message}`;
      finish('error', message);
      if (!res.headersSent) {
        exchange.status = 502;
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`${message}\n`);
      } else {
        res.destroy();
      }
    });
    // The client went away: stop reading the server too.
    res.on('close', () => {
      if (!ended) {
        finish('aborted', 'The client closed the connection');
        upstream.destroy();
      }
    });
    req.pipe(upstream);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Raw header pairs as received (names and order kept), less the hop-by-hop ones and Host. */
function forwardHeaders(raw: readonly string[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === 'host') continue;
    out.push([name, raw[i + 1]!]);
  }
  return out;
}

/** Header pairs as Node's outgoing form, repeated names kept (Set-Cookie). */
function toOutgoing(headers: HeaderList): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const existing = out[name];
    out[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}
