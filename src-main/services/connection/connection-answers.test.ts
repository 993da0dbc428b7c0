import { describe, expect, it } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { openConnection, type ConnectionSpec } from './connection';
import { SSE_HEADERS, sleep } from './loopback-testing';
import { capture, loopbackPerTest } from './connection-testing';

const { serve, get, server } = loopbackPerTest();

describe('a live connection takes or refuses what a loopback server answers', () => {
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
          `^HTTP ${status} .*: redirects to ${server().url}/v2/agent/run\\?format=json&access_token=\\[redacted\\]; redirects are not followed`,
        ),
      );
      expect(outcome.failure?.message).not.toContain('CANARY');
      expect(server().requests).toHaveLength(1);
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
      expect((await server().clientClosed(0)) - reportedAt).toBeLessThan(2000);
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
});
