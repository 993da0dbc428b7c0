import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type LookupFunction } from 'node:net';
import { openConnection, type ConnectionDeps, type ConnectionHandlers, type ConnectionSpec } from './connection';
import { createNodeHttpTransport } from './http-transport';
import {
  SSE_HEADERS,
  refusedPort,
  sleep,
  startLoopbackServer,
  writeSlowly,
  type LoopbackHandler,
  type LoopbackServer,
} from './loopback-testing';
import { buildRequest } from './request-spec';
import { createManualClock, type ManualClock } from '../replay/manual-clock';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Captured {
  chunks: { bytes: Uint8Array; receivedAt: number }[];
  heads: { status: number; accepted: boolean }[];
  rejected: number;
  text(): string;
}

function capture(): Captured & ConnectionHandlers {
  const captured: Captured & ConnectionHandlers = {
    chunks: [],
    heads: [],
    rejected: 0,
    text: () => Buffer.concat(captured.chunks.map((c) => c.bytes)).toString('utf8'),
    onChunk: (bytes, receivedAt) => captured.chunks.push({ bytes, receivedAt }),
    onResponse: (head, accepted) => captured.heads.push({ status: head.status, accepted }),
    onRejectedChunk: (bytes) => (captured.rejected += bytes.byteLength),
  };
  return captured;
}

/** The connection's receive times and timeouts, on a clock the test moves. */
function onClock(clock: ManualClock): ConnectionDeps {
  return { now: () => clock.now(), timers: clock };
}

/** Resolves on the next chunk the sink receives (the event a test waits for, instead of a sleep). */
function nextChunk(sink: ConnectionHandlers): Promise<void> {
  const onChunk = sink.onChunk.bind(sink);
  return new Promise((resolve) => {
    sink.onChunk = (bytes, receivedAt) => {
      onChunk(bytes, receivedAt);
      sink.onChunk = onChunk;
      resolve();
    };
  });
}

async function serve(handler: LoopbackHandler): Promise<LoopbackServer> {
  server = await startLoopbackServer(handler);
  return server;
}

function get(path: string, extra: Partial<ConnectionSpec> = {}): ConnectionSpec {
  if (!server) throw new Error('no server');
  return { url: new URL(path, server.url), method: 'GET', headers: [], ...extra };
}

describe('live connection against loopback servers', () => {
  it('streams a POST with headers and body, chunk by chunk, with receive times', async () => {
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, ['data: {"a":1}\n\n', 'data: {"a"', ':2}\n\ndata: [DONE]\n\n'], 30);
    });
    const { spec } = buildRequest({
      url: `${server!.url}/agent/run?format=json`,
      method: 'post',
      headers: [
        ['X-Trace', 'abc'],
        ['Authorization', 'Bearer t0k'],
      ],
      body: { kind: 'json', text: '{"user_prompt":"hi","agent_type":"agent_frontend_tools"}' },
    });
    const sink = capture();
    const outcome = await openConnection(spec, sink).done;

    expect(outcome).toMatchObject({ reason: 'complete', status: 200 });
    const received = server!.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/agent/run?format=json');
    expect(received.headers['x-trace']).toBe('abc');
    expect(received.headers['authorization']).toBe('Bearer t0k');
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body)).toEqual({ user_prompt: 'hi', agent_type: 'agent_frontend_tools' });
    expect(sink.text()).toBe('data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n');
    expect(sink.chunks.length).toBeGreaterThanOrEqual(3);
    const times = sink.chunks.map((c) => c.receivedAt);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(40);
    expect(outcome.bytes).toBe(Buffer.byteLength(sink.text()));
  });

  it('receives a slow drip of one byte every few milliseconds without losing or merging data', async () => {
    const stream = 'data: {"type":"text","agent":"a","final":false,"delta":"héllo"}\n\n';
    const bytes = [...Buffer.from(stream)].map((b) => Uint8Array.of(b));
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      await writeSlowly(res, bytes, 3);
    });
    const sink = capture();
    const outcome = await openConnection(get('/drip'), sink).done;
    expect(outcome.reason).toBe('complete');
    expect(sink.text()).toBe(stream);
    // Separate writes 3 ms apart arrive as (mostly) separate chunks.
    expect(sink.chunks.length).toBeGreaterThan(bytes.length / 2);
  });

  it('reports a server that closes the connection mid-event as aborted and keeps every byte', async () => {
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: {"complete":1}\n\ndata: {"cut');
      await sleep(30);
      res.socket?.destroy();
    });
    const sink = capture();
    const outcome = await openConnection(get('/cut'), sink).done;
    expect(outcome.reason).toBe('aborted');
    expect(outcome.failure?.kind).toBe('aborted');
    expect(outcome.failure?.message).toMatch(/cut off in the middle of the stream after 33 bytes/);
    expect(sink.text()).toBe('data: {"complete":1}\n\ndata: {"cut');
  });

  it('treats a clean end in the middle of an event as a complete response (the decoder reports the torn event)', async () => {
    await serve((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end('data: {"x":1}\n\ndata: {"torn"');
    });
    const sink = capture();
    const outcome = await openConnection(get('/torn'), sink).done;
    expect(outcome.reason).toBe('complete');
    expect(sink.text()).toBe('data: {"x":1}\n\ndata: {"torn"');
  });

  it('keeps an idle stream open with no timeout of its own and delivers what comes after the silence', async () => {
    let endSilence!: () => void;
    const silenceOver = new Promise<void>((resolve) => (endSilence = resolve));
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: first\n\n');
      await silenceOver;
      res.end('data: after-silence\n\n');
    });
    const clock = createManualClock(1_000_000);
    const sink = capture();
    const firstChunk = nextChunk(sink);
    const connection = openConnection(get('/idle'), sink, onClock(clock));
    await firstChunk;
    // An hour of silence on the injected clock: no timer of the connection's own is left to fire.
    await clock.advance(60 * 60 * 1000);
    expect(clock.pending()).toEqual([]);
    const during = connection.progress();
    expect(during.bytes).toBe(13);
    expect(clock.now() - during.lastActivityAt).toBeGreaterThanOrEqual(60 * 60 * 1000);
    endSilence();
    const outcome = await connection.done;
    expect(outcome.reason).toBe('complete');
    expect(sink.text()).toBe('data: first\n\ndata: after-silence\n\n');
  });

  it('gives up on an idle stream only when an idle timeout was asked for', async () => {
    let endSilence!: () => void;
    const silenceOver = new Promise<void>((resolve) => (endSilence = resolve));
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: one\n\n');
      await silenceOver;
      res.end();
    });
    const clock = createManualClock(1_000_000);
    const sink = capture();
    const firstChunk = nextChunk(sink);
    const connection = openConnection(get('/idle', { timeouts: { idleMs: 200 } }), sink, onClock(clock));
    let finished = false;
    void connection.done.then(() => (finished = true));
    await firstChunk;
    await clock.advance(199);
    expect(finished).toBe(false);
    await clock.advance(1);
    const outcome = await connection.done;
    endSilence();
    expect(outcome.reason).toBe('failed');
    expect(outcome.failure).toMatchObject({ kind: 'idle-timeout' });
    expect(sink.text()).toBe('data: one\n\n');
  });

  it('pause stops reading: the server is held back by TCP, the idle timeout waits, and resume delivers every byte', async () => {
    const event = `data: ${'x'.repeat(1000)}\n\n`;
    const total = 16 * 1024 * 1024;
    let sent = 0;
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      while (sent < total && !res.destroyed) {
        const part = event.repeat(64);
        sent += part.length;
        if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    let received = 0;
    const clock = createManualClock(1_000_000);
    const connection = openConnection(
      get('/firehose', { timeouts: { idleMs: 300 } }),
      {
        onChunk: (bytes) => {
          received += bytes.byteLength;
          if (received === bytes.byteLength) connection.pause();
        },
      },
      onClock(clock),
    );
    let finished = false;
    void connection.done.then(() => (finished = true));
    // Real time for the real server to fill the socket buffers and be held back by TCP.
    await sleep(250);
    // Ten idle timeouts' worth of silence on the injected clock while paused: none fires.
    await clock.advance(3000);
    expect(finished).toBe(false);
    const whilePaused = received;
    // Paused after the first chunk: what arrived is at most that chunk, and the server could
    // only fill the socket buffers, far from the whole stream.
    expect(whilePaused).toBeLessThanOrEqual(64 * 1024);
    expect(sent).toBeLessThan(total / 2);
    connection.resume();
    const outcome = await connection.done;
    expect(outcome.reason).toBe('complete');
    expect(received).toBe(sent);
    expect(received).toBeGreaterThanOrEqual(total);
  });

  it('stop closes the request within a second and the server sees the client go away', async () => {
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 1000 && !res.destroyed; i++) {
        res.write(`data: ${i}\n\n`);
        await sleep(20);
      }
      res.end();
    });
    const sink = capture();
    const firstChunk = nextChunk(sink);
    const connection = openConnection(get('/forever'), sink);
    await firstChunk;
    const stoppedAt = performance.now();
    connection.stop();
    const outcome = await connection.done;
    expect(outcome.reason).toBe('stopped');
    const serverSawClose = await server!.clientClosed(0);
    expect(serverSawClose - stoppedAt).toBeLessThan(1000);
    const count = sink.chunks.length;
    // Real time: nothing may arrive after stop, and absence can only be seen by waiting.
    await sleep(100);
    expect(sink.chunks.length).toBe(count);
  });

  it.each([
    [
      500,
      'Internal Server Error',
      'text/plain',
      'Traceback: boom',
      /HTTP 500 Internal Server Error: the server failed/,
    ],
    [
      422,
      'Unprocessable Entity',
      'application/json',
      '{"detail":[{"loc":["body","user_prompt"],"msg":"field required"}]}',
      /HTTP 422 Unprocessable Entity: the request body failed/,
    ],
  ])('shows a %i response with its body and never decodes it', async (status, statusText, type, body, message) => {
    await serve((_req, res) => {
      res.writeHead(status, statusText, { 'Content-Type': type });
      res.end(body);
    });
    const sink = capture();
    const outcome = await openConnection(get('/fail'), sink).done;
    expect(outcome.reason).toBe('failed');
    expect(outcome.failure).toMatchObject({
      kind: 'http-status',
      status,
      body,
      bodyTruncated: false,
      contentType: type,
    });
    expect(outcome.failure?.message).toMatch(message);
    expect(sink.chunks).toHaveLength(0);
    expect(sink.heads).toEqual([{ status, accepted: false }]);
    expect(sink.rejected).toBe(Buffer.byteLength(body));
  });

  it.each([
    [
      'an HTML login page',
      'text/html; charset=utf-8',
      '<!doctype html><html><body><form>Sign in</form></body></html>',
      /login page/,
    ],
    ['a JSON error', 'application/json', '{"error":"quota"}', /got application\/json \(HTTP 200\)/],
  ])('refuses %s served with status 200 as a stream', async (_name, type, body, message) => {
    await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': type });
      res.end(body);
    });
    const sink = capture();
    const outcome = await openConnection(get('/page'), sink).done;
    expect(outcome.failure).toMatchObject({ kind: 'content-type', body, contentType: type });
    expect(outcome.failure?.message).toMatch(message);
    expect(sink.chunks).toHaveLength(0);
  });

  it('regression: a 204 says No Content, not "no Content-Type"', async () => {
    await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    for (const extra of [{}, { acceptAnyContentType: true }]) {
      const outcome = await openConnection(get('/empty', extra), capture()).done;
      expect(outcome.failure).toMatchObject({ kind: 'http-status', status: 204 });
      expect(outcome.failure?.message).toMatch(/^HTTP 204 No Content: the server has no stream to send/);
      expect(outcome.failure?.message).not.toMatch(/Content-Type/);
    }
  });

  it.each([301, 302, 303, 307, 308])(
    'regression: a %i redirect names its target (secrets in it redacted) and is not followed',
    async (status) => {
      await serve((_req, res) => {
        res.writeHead(status, {
          Location: '/v2/agent/run?format=json&access_token=CANARY',
          'Content-Type': 'text/plain',
        });
        res.end('moved');
      });
      const outcome = await openConnection(get('/agent/run'), capture()).done;
      expect(outcome.failure).toMatchObject({ kind: 'http-status', status });
      expect(outcome.failure?.message).toMatch(
        new RegExp(
          `^HTTP ${status} .*: redirects to ${server!.url}/v2/agent/run\\?format=json&access_token=\\[redacted\\]; redirects are not followed`,
        ),
      );
      expect(outcome.failure?.message).not.toContain('CANARY');
      expect(server!.requests).toHaveLength(1);
    },
  );

  it('regression: a redirect without a Location says so', async () => {
    await serve((_req, res) => {
      res.writeHead(302, { 'Content-Type': 'text/plain' });
      res.end();
    });
    const outcome = await openConnection(get('/agent/run'), capture()).done;
    expect(outcome.failure?.message).toMatch(/^HTTP 302 Found: a redirect without a Location header/);
  });

  it('decodes a mislabelled stream when told to accept any content type', async () => {
    await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('data: x\n\n');
    });
    const sink = capture();
    const outcome = await openConnection(get('/plain', { acceptAnyContentType: true }), sink).done;
    expect(outcome.reason).toBe('complete');
    expect(sink.text()).toBe('data: x\n\n');
  });

  it('takes a text/plain response whose header announces a line-framed wire (the AI SDK v4 data stream) as a stream', async () => {
    await serve((req, res) => {
      const announced = req.url === '/announced';
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        ...(announced ? { 'X-Vercel-AI-Data-Stream': 'v1' } : {}),
      });
      res.end('0:"Hi"\n');
    });
    const sink = capture();
    const outcome = await openConnection(get('/announced'), sink).done;
    expect(outcome.reason).toBe('complete');
    expect(sink.text()).toBe('0:"Hi"\n');
    // Without the header, text/plain is no stream, whatever its bytes look like.
    const plain = await openConnection(get('/plain'), capture()).done;
    expect(plain.failure?.kind).toBe('content-type');
  });

  it('caps a large rejected body and says it was truncated', async () => {
    await serve((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<p>'.padEnd(300_000, 'x'));
    });
    const outcome = await openConnection(get('/big'), capture()).done;
    expect(outcome.failure).toMatchObject({ kind: 'http-status', status: 502, bodyTruncated: true });
    expect(outcome.failure?.body).toHaveLength(64 * 1024);
  });

  it('refuses a compressed stream instead of decoding compressed bytes', async () => {
    await serve((_req, res) => {
      res.writeHead(200, { ...SSE_HEADERS, 'Content-Encoding': 'gzip' });
      res.end(Buffer.from([0x1f, 0x8b, 8, 0]));
    });
    const sink = capture();
    const outcome = await openConnection(get('/gz'), sink).done;
    expect(outcome.failure?.kind).toBe('content-type');
    expect(outcome.failure?.message).toMatch(/Content-Encoding: gzip/);
    expect(sink.chunks).toHaveLength(0);
  });

  it('takes an empty Content-Encoding for what it is, no coding, and streams the body', async () => {
    await serve((_req, res) => {
      res.writeHead(200, { ...SSE_HEADERS, 'Content-Encoding': '' });
      res.end('data: [DONE]\n\n');
    });
    const sink = capture();
    const outcome = await openConnection(get('/plain'), sink).done;
    expect(outcome).toMatchObject({ reason: 'complete', status: 200 });
    expect(sink.text()).toBe('data: [DONE]\n\n');
  });

  it(
    'closes the socket once a failed response is reported, though its body still trickles',
    { timeout: 15_000 },
    async () => {
      await serve(async (_req, res) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        for (let i = 0; i < 400 && !res.destroyed; i++) {
          res.write('.');
          await sleep(25);
        }
        res.end();
      });
      const outcome = await openConnection(get('/trickle', { timeouts: { responseMs: 300 } }), capture()).done;
      const reportedAt = performance.now();
      expect(outcome).toMatchObject({ reason: 'failed', failure: { kind: 'http-status', status: 500 } });
      expect((await server!.clientClosed(0)) - reportedAt).toBeLessThan(2000);
    },
  );

  it('reports a 101 Switching Protocols answer at once, as the answer it is', { timeout: 15_000 }, async () => {
    const upgrading = createServer();
    // A server that switches protocols on a plain request, as a misrouted WebSocket endpoint does.
    upgrading.on('request', (_req, res: ServerResponse) => {
      res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    });
    await new Promise<void>((resolve) => upgrading.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = upgrading.address() as AddressInfo;
      const spec: ConnectionSpec = {
        url: new URL(`http://127.0.0.1:${port}/agent/run`),
        method: 'GET',
        headers: [],
        timeouts: { responseMs: 60_000 },
      };
      const outcome = await openConnection(spec, capture()).done;
      expect(outcome).toMatchObject({ reason: 'failed', status: 101, failure: { kind: 'http-status', status: 101 } });
      expect(outcome.failure?.message).toMatch(/^HTTP 101 Switching Protocols/);
    } finally {
      upgrading.closeAllConnections();
      await new Promise((resolve) => upgrading.close(resolve));
    }
  });

  it('never completes a response that goes on past its Content-Length, and keeps the body before the excess', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () => {
        socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 9\r\n\r\ndata: a\n\ndata: [DONE]\n\ndata: b\n\n',
        );
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = raw.address() as AddressInfo;
      const sink = capture();
      const outcome = await openConnection(
        { url: new URL(`http://127.0.0.1:${port}/run`), method: 'GET', headers: [] },
        sink,
      ).done;
      expect(outcome).toMatchObject({
        reason: 'aborted',
        failure: {
          code: 'EOVERRUN',
          message: expect.stringMatching(
            /^The server sent more bytes than the response's length .*the 9 bytes before them are kept\.$/,
          ) as unknown,
        },
      });
      expect(sink.text()).toBe('data: a\n\n');
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('reports a refused connection clearly', async () => {
    const port = await refusedPort();
    const outcome = await openConnection(
      { url: new URL(`http://127.0.0.1:${port}/agent/run`), method: 'POST', headers: [] },
      capture(),
    ).done;
    expect(outcome.reason).toBe('failed');
    expect(outcome.failure).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    expect(outcome.failure?.message).toBe(
      `Connection refused by 127.0.0.1:${port}: nothing is listening there. Is the server running?`,
    );
  });

  it('reports a host name that does not resolve as a DNS failure', async () => {
    // The resolver answers as the system's does for an unknown name; no query leaves the machine.
    const notFound: LookupFunction = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 4);
    const transport = createNodeHttpTransport({ lookup: notFound });
    const outcome = await openConnection(
      { url: new URL('http://no-such-host.invalid/'), method: 'GET', headers: [] },
      capture(),
      { transport },
    ).done;
    expect(outcome.failure?.kind).toBe('dns');
    expect(outcome.failure?.message).toMatch(/Could not resolve the host name no-such-host\.invalid/);
  });

  it('reports a TLS failure (https spoken to a plain HTTP server)', async () => {
    await serve((_req, res) => {
      res.end('plain');
    });
    const url = new URL(server!.url.replace('http:', 'https:'));
    const outcome = await openConnection({ url, method: 'GET', headers: [] }, capture()).done;
    expect(outcome.failure?.kind).toBe('tls');
    expect(outcome.failure?.message).toMatch(/^TLS handshake with 127\.0\.0\.1:\d+ failed/);
  });

  it('times out when the server accepts but never answers', async () => {
    await serve(() => {
      // never respond
    });
    const started = performance.now();
    const outcome = await openConnection(get('/hang', { timeouts: { responseMs: 200 } }), capture()).done;
    expect(outcome.failure).toMatchObject({ kind: 'timeout' });
    expect(outcome.failure?.message).toMatch(/accepted the request but sent no response within 200 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('building a request from the connect form', () => {
  it('refuses what cannot be sent, saying what to fix', () => {
    const base = { url: 'http://127.0.0.1:1/x', method: 'POST', headers: [] as [string, string][] };
    expect(() => buildRequest({ ...base, url: 'ftp://x/y' })).toThrow(/Only http and https/);
    expect(() => buildRequest({ ...base, url: 'localhost:8000' })).toThrow(
      /Only http and https URLs can be opened \(got localhost:\)/,
    );
    expect(() => buildRequest({ ...base, url: '/agent/run' })).toThrow(/not a valid URL/);
    expect(() => buildRequest({ ...base, headers: [['Bad Name', 'v']] })).toThrow(/Header name 'Bad Name'/);
    expect(() => buildRequest({ ...base, headers: [['X', 'a\r\nInjected: 1']] })).toThrow(/line break/);
    expect(() => buildRequest({ ...base, body: { kind: 'json', text: '{nope' } })).toThrow(/not valid JSON/);
    expect(() => buildRequest({ ...base, method: 'GET', body: { kind: 'raw', text: 'x' } })).toThrow(
      /GET request cannot carry a body/,
    );
    expect(() => buildRequest({ ...base, reconnect: { maxAttempts: 3 } })).toThrow(
      /re-sending a POST would start a new agent run/,
    );
  });

  it('keeps an explicit Content-Type and skips empty header rows', () => {
    const { spec } = buildRequest({
      url: 'http://h/agent/run',
      method: 'POST',
      headers: [
        ['', ''],
        ['content-type', 'application/vnd.x+json'],
      ],
      body: { kind: 'json', text: '{}' },
    });
    expect(spec.headers).toEqual([['content-type', 'application/vnd.x+json']]);
  });
});
