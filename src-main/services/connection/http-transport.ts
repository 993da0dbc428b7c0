import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { OVERRUN_CODE } from './failures';

/**
 * How the live connection talks HTTP, injected so that tests and the CLI run it against real
 * loopback servers and a host could swap it.
 *
 * The default is node:http(s) rather than fetch: Node 20's fetch is undici with a 300 s
 * `bodyTimeout` that kills a quiet agent stream (a long tool run sends nothing), and the only
 * way to lift it is an undici `Agent({ bodyTimeout: 0 })` dispatcher — but Node 20 does not
 * export undici's Agent, and the `undici` package is not a dependency. node:http has no body
 * or header timeout on the client side at all, so every timeout here is our own and visible
 * (connect, response head, optional idle), and a stream may stay silent for hours.
 */
export interface HttpRequestSpec {
  url: URL;
  method: string;
  headers: [string, string][];
  body?: Uint8Array;
}

export interface HttpResponseHead {
  status: number;
  statusText: string;
  /** In wire order, repeated names kept. */
  headers: [string, string][];
}

export interface HttpSink {
  /** TCP (and TLS) connection established. */
  onConnected(): void;
  onResponse(head: HttpResponseHead): void;
  onData(chunk: Uint8Array): void;
  /** The body ended normally (chunked terminator, content-length reached, or close-delimited). */
  onEnd(): void;
  /** The exchange failed: before the response head, or the body was cut off. Called at most once. */
  onError(error: Error & { code?: string }): void;
}

export interface HttpExchange {
  /** Destroys the socket at once; no sink callback follows. */
  abort(): void;
  /** Stops reading the body (TCP slows the server down) until `resume`: the consumer is behind. */
  pause?(): void;
  resume?(): void;
}

export type HttpTransport = (spec: HttpRequestSpec, sink: HttpSink) => HttpExchange;

/** Pairs from node's flat rawHeaders list. */
function headerPairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/**
 * A chunk handed to us may be a view into a larger pooled allocation; keeping the view would
 * keep the whole allocation alive, so small views are copied (the store retains chunks).
 */
function ownBytes(chunk: Buffer): Uint8Array {
  if (chunk.byteLength * 2 < chunk.buffer.byteLength) return new Uint8Array(chunk);
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function overrunError(detail: string): Error & { code?: string } {
  return Object.assign(
    new Error(
      `The server sent more bytes than the response's length (${detail}): what came after the body is not part of it and was dropped`,
    ),
    { code: OVERRUN_CODE },
  );
}

export interface NodeHttpTransportOptions {
  /** Host name resolution (node's default: the system resolver). Tests inject one. */
  lookup?: LookupFunction;
}

export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): HttpTransport {
  return (spec, sink) => exchange(spec, sink, options);
}

export const nodeHttpTransport: HttpTransport = createNodeHttpTransport();

function exchange(spec: HttpRequestSpec, sink: HttpSink, options: NodeHttpTransportOptions): HttpExchange {
  const send = spec.url.protocol === 'https:' ? httpsRequest : httpRequest;
  let finished = false;
  let aborted = false;
  const finish = (fn: () => void): void => {
    if (finished || aborted) return;
    finished = true;
    fn();
  };

  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of spec.headers) {
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  if (spec.body && !spec.headers.some(([n]) => n.toLowerCase() === 'content-length'))
    headers['Content-Length'] = String(spec.body.byteLength);

  let req: ClientRequest;
  let response: IncomingMessage | undefined;
  let paused = false;
  try {
    // agent: false — a fresh connection that nobody else shares, so aborting it is final
    // and no pooled keep-alive socket outlives the session.
    req = send(spec.url, {
      method: spec.method,
      headers,
      agent: false,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
  } catch (error) {
    queueMicrotask(() => finish(() => sink.onError(error as Error)));
    return { abort: () => (aborted = true) };
  }

  req.on('socket', (socket) => {
    const connectEvent = spec.url.protocol === 'https:' ? 'secureConnect' : 'connect';
    socket.once(connectEvent, () => {
      if (!finished && !aborted) sink.onConnected();
    });
  });
  /**
   * Bytes after the body's end (more than its Content-Length) in what the socket read with it:
   * node's parser fails on them before the body is delivered. (Bytes that come later never
   * arrive: without keep-alive the socket closes when the response is complete.)
   */
  let overrun: (Error & { code?: string }) | undefined;
  req.on('error', (error: Error & { code?: string }) => {
    // The body before them is still to be delivered: the failure is reported after it.
    if (response && error.code?.startsWith('HPE_')) overrun = overrunError(error.code);
    else finish(() => sink.onError(error));
  });
  // 101 Switching Protocols is no HTTP response: node hands it over as 'upgrade' (and with no
  // listener drops the socket without a word). It is reported as the answer it is.
  req.on('upgrade', (res: IncomingMessage, socket) => {
    socket.destroy();
    if (aborted) return;
    sink.onResponse({
      status: res.statusCode ?? 101,
      statusText: res.statusMessage ?? '',
      headers: headerPairs(res.rawHeaders),
    });
    finish(() => sink.onEnd());
  });
  req.on('close', () => {
    if (!response)
      finish(() =>
        sink.onError(Object.assign(new Error('The connection closed before any response'), { code: 'ECONNRESET' })),
      );
  });
  req.on('response', (res: IncomingMessage) => {
    if (aborted) return;
    response = res;
    if (paused) res.pause();
    sink.onResponse({
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: headerPairs(res.rawHeaders),
    });
    res.on('data', (chunk: Buffer) => {
      if (!finished && !aborted) sink.onData(ownBytes(chunk));
    });
    res.on('end', () => {
      const error = overrun;
      finish(() => (error ? sink.onError(error) : sink.onEnd()));
    });
    res.on('error', (error) => finish(() => sink.onError(error)));
    res.on('close', () => {
      // 'close' without a complete body: the server (or the network) cut the stream off.
      if (!res.complete)
        finish(() =>
          sink.onError(
            Object.assign(new Error('The connection closed before the response body was complete'), {
              code: 'ECONNRESET',
            }),
          ),
        );
    });
  });
  req.end(spec.body);

  return {
    abort() {
      if (aborted) return;
      aborted = true;
      req.destroy();
    },
    pause() {
      paused = true;
      response?.pause();
    },
    resume() {
      paused = false;
      response?.resume();
    },
  };
}
