import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { withheldBody } from '../../../src-shared/recording/redact';
import type { HeaderList, RecordedRequest, RecordedResponse } from '../../../src-shared/recording/types';
import { forwardHeaders, resolveRequestTarget } from './request-target';

/**
 * A reverse proxy on 127.0.0.1 that forwards every request to one target unchanged and streams
 * every response back as it arrives. It is what a frontend under test talks to instead of its
 * agent server, so the inspector sees exactly what the frontend receives.
 *
 * A chunk is written to the client as soon as it is read, and when the client's socket buffer
 * is full the upstream read pauses, so a slow frontend slows the server instead of growing
 * memory. Observers (`tap`) look at the chunks after the client got them; one that falls behind
 * (a recording on a slow disk) pauses the read the same way instead of queueing.
 */

/** Request bodies kept for the recording (the whole body is always forwarded). */
export const MAX_RECORDED_BODY = 1024 * 1024;

export interface ExchangeTap {
  /** Returns a promise when the observer cannot keep up (a recording behind the stream): the server is not read until it resolves. */
  chunk(bytes: Uint8Array, receivedAt: number): Promise<void> | undefined;
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
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new Error(`The proxy target must be an http(s) URL, not ${target.protocol}`);
  const now = options.now ?? (() => Date.now());
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  let nextId = 1;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const exchange: ProxyExchange = {
      id: nextId++,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      startedAt: now(),
      bytes: 0,
    };
    options.onExchange?.(exchange);
    // A client that goes away mid-body, or a socket error, must not become an uncaught 'error'.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const forward = resolveRequestTarget(target, exchange.path);
    if ('refused' in forward) {
      refuse(res, exchange, forward.refused);
      return;
    }
    const headers = forwardHeaders(req.rawHeaders);
    headers.push(['host', target.host]);
    const body: Buffer[] = [];
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      if (bodyBytes < MAX_RECORDED_BODY) body.push(chunk.subarray(0, MAX_RECORDED_BODY - bodyBytes));
      bodyBytes += chunk.length;
    });
    // The path goes upstream as the client wrote it; the host and port are the target's, never the client's.
    let upstream: ClientRequest;
    try {
      upstream = (secure ? httpsRequest : httpRequest)({
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: forward.path,
        method: exchange.method,
        headers: toOutgoing(headers),
        agent,
      });
    } catch (error) {
      // Node refuses to send it (a header value it will not write): the client hears why.
      refuse(
        res,
        exchange,
        `The proxy could not forward this request: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    let tap: ExchangeTap | null = null;
    let ended = false;
    let responded = false;
    const finish = (reason: 'done' | 'error' | 'aborted', message?: string): void => {
      if (ended) return;
      ended = true;
      exchange.endedAt = now();
      if (message !== undefined) exchange.error = message;
      tap?.end(message === undefined ? { reason } : { reason, message });
      options.onExchange?.(exchange);
    };
    /** The exchange failed before its response was relayed: 502 with the reason, or a cut if the head went out. */
    const failWith = (message: string): void => {
      finish('error', message);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      exchange.status = 502;
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${message}\n`);
    };
    const brokeOff = (error?: NodeJS.ErrnoException): void => {
      finish(
        'error',
        `The server's response broke off${error?.code === 'ECONNRESET' ? ': the connection was reset' : error ? `: ${error.message}` : ''}`,
      );
      res.destroy();
    };

    const relay = (upstreamRes: IncomingMessage): void => {
      responded = true;
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
        url: forward.url.href,
        headers: headers.filter(([name]) => name !== 'host'),
        // A cut body could not be redacted reliably (it may end inside a secret): it is withheld, saying so.
        body:
          bodyBytes === 0
            ? null
            : bodyBytes > MAX_RECORDED_BODY
              ? withheldBody(
                  `${bodyBytes} bytes, over the ${MAX_RECORDED_BODY} bytes the proxy keeps of a request body; it was forwarded whole`,
                )
              : Buffer.concat(body).toString('utf8'),
      };
      tap =
        options.onResponse?.(
          recorded,
          { status: exchange.status, statusText: upstreamRes.statusMessage ?? '', headers: responseHeaders },
          exchange,
        ) ?? null;
      options.onExchange?.(exchange);
      // The server is read while both the client and the observer keep up: a full client socket
      // or a recording behind the stream pauses the read, and TCP slows the server down.
      let holds = 0;
      const hold = (): void => {
        if (holds++ === 0) upstreamRes.pause();
      };
      const release = (): void => {
        if (--holds === 0) upstreamRes.resume();
      };
      upstreamRes.on('data', (chunk: Buffer) => {
        exchange.bytes += chunk.length;
        // Written first: each chunk goes to the client before any observer sees it.
        if (!res.write(chunk)) {
          hold();
          res.once('drain', release);
        }
        const wait = tap?.chunk(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length), now());
        if (wait) {
          hold();
          void wait.then(release);
        }
      });
      upstreamRes.on('end', () => {
        res.end();
        finish('done');
      });
      upstreamRes.on('error', brokeOff);
      upstreamRes.on('aborted', () => brokeOff());
    };
    upstream.on('response', (upstreamRes) => {
      try {
        relay(upstreamRes);
      } catch (error) {
        // A head Node will not send on (a status outside 100–999): the exchange fails, the proxy stays up.
        upstreamRes.destroy();
        failWith(
          `The server's response could not be forwarded: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    upstream.on('error', (error) => {
      // After the head, an error is the response breaking off (a reset), not an unreachable server.
      if (responded) {
        brokeOff(error);
        return;
      }
      failWith(`The proxy could not reach ${target.origin}: ${error.message}`);
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

  /** Answers a request the proxy will not forward: 400, saying why; listed like any exchange. */
  const refuse = (res: ServerResponse, exchange: ProxyExchange, message: string): void => {
    exchange.status = 400;
    exchange.endedAt = now();
    exchange.error = message;
    options.onExchange?.(exchange);
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`${message}\n`);
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      // Nothing a client sends may throw out of the handler (it would end the process).
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(`The proxy could not forward this request: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
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

/** Header pairs as Node's outgoing form, repeated names kept (Set-Cookie). */
function toOutgoing(headers: HeaderList): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const existing = out[name];
    out[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}
