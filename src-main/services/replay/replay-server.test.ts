import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { createRecorder } from '../recording/recorder';
import { createManualClock } from './manual-clock';
import { startReplayServer, type ReplayServer, type ReplayServerOptions } from './replay-server';

const RUN = Buffer.from(readFixture('frontend_tools.json.sse'));
const RESUME = Buffer.from(readFixture('frontend_tools_resume.json.sse'));

let dir: string;
let recording: string;
let servers: ReplayServer[] = [];

/** A two-leg recording: the paused run then its continuation, cut into 300-byte chunks 10 ms apart. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-server-'));
  recording = join(dir, 'round-trip.recording');
  const recorder = await createRecorder(recording, { now: () => 0 });
  for (const [i, bytes] of [RUN, RESUME].entries()) {
    const leg = recorder.startLeg({
      method: 'POST',
      url: `http://h/agent/${i ? 'tool_results' : 'run'}`,
      headers: [],
      body: '{}',
    });
    recorder.response(
      leg,
      {
        status: 200,
        statusText: 'OK',
        headers: [
          ['content-type', 'text/event-stream; charset=utf-8'],
          ['content-length', '999'],
          ['x-upstream', 'kept'],
          ['set-cookie', 'secret'],
        ],
      },
      true,
    );
    for (let at = 0, t = 0; at < bytes.length; at += 300, t += 10) recorder.chunk(leg, bytes.subarray(at, at + 300), t);
    recorder.endLeg(leg, { reason: 'done' });
  }
  await recorder.close();
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function serve(options: Partial<ReplayServerOptions> = {}): Promise<ReplayServer> {
  const server = await startReplayServer({ path: recording, speed: 'fast', ...options });
  servers.push(server);
  return server;
}

async function body(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

const post = (url: string, payload = '{}') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });

/** A raw HTTP/1.1 request; returns the sizes of the chunks of the chunked body, and the body. */
async function rawChunks(server: ReplayServer, path: string): Promise<{ sizes: number[]; body: Buffer }> {
  const socket = connect(server.port, '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const parts: Buffer[] = [];
  for await (const part of socket) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  let at = raw.indexOf('\r\n\r\n') + 4;
  expect(raw.subarray(0, at).toString()).toMatch(/transfer-encoding: chunked/i);
  const sizes: number[] = [];
  const chunks: Buffer[] = [];
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, lineEnd).toString(), 16);
    if (size === 0) break;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    sizes.push(size);
    at = lineEnd + 2 + size + 2;
  }
  return { sizes, body: Buffer.concat(chunks) };
}

describe('replay server', () => {
  it('serves leg 0 for a run request and the continuation for tool_results, byte for byte', async () => {
    const server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const run = await post(`${server.url}/agent/run`);
    expect(run.status).toBe(200);
    expect(run.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(run.headers.get('x-upstream')).toBe('kept');
    expect(run.headers.get('content-length')).toBeNull();
    expect(run.headers.get('set-cookie')).toBeNull();
    // No page of another origin may read it unless the user allowed one.
    expect(run.headers.get('access-control-allow-origin')).toBeNull();
    expect((await body(run)).equals(RUN)).toBe(true);

    const resume = await post(`${server.url}/agent/tool_results`, '{"agent_uuid":"x","tool_results":[]}');
    expect((await body(resume)).equals(RESUME)).toBe(true);

    const none = await post(`${server.url}/agent/tool_results`);
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ error: 'NoRecordedContinuation' });
  });

  it('starts the session again on a new run request, and answers GET on any path', async () => {
    const requests: (number | null)[] = [];
    const server = await serve({ onRequest: (r) => requests.push(r.leg) });
    await body(await post(`${server.url}/agent/run`));
    await body(await post(`${server.url}/agent/tool_results`));
    expect((await body(await fetch(`${server.url}/any/path?x=1`))).equals(RUN)).toBe(true);
    expect((await body(await post(`${server.url}/agent/tool_results`))).equals(RESUME)).toBe(true);
    expect(requests).toEqual([0, 1, 0, 1]);
  });

  it('lets pages read it only from the origins the user allowed', async () => {
    const page = 'http://localhost:5173';
    const closed = await serve();
    const fromPage = { method: 'POST', headers: { origin: page } };
    const refused = await fetch(`${closed.url}/agent/run`, fromPage);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    await body(refused);
    const preflightRefused = await fetch(`${closed.url}/agent/run`, { method: 'OPTIONS', headers: { origin: page } });
    expect(preflightRefused.headers.get('access-control-allow-origin')).toBeNull();

    const open = await serve({ allowOrigins: [page] });
    const allowed = await fetch(`${open.url}/agent/run`, fromPage);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(page);
    expect(allowed.headers.get('vary')).toContain('Origin');
    await body(allowed);
    const other = await fetch(`${open.url}/agent/run`, { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await body(other);

    const any = await serve({ allowOrigins: ['*'] });
    const anyPage = await fetch(`${any.url}/agent/run`, { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(anyPage.headers.get('access-control-allow-origin')).toBe('*');
    await body(anyPage);
  });

  it('answers a CORS preflight from an allowed origin and refuses other methods', async () => {
    const server = await serve({ allowOrigins: ['http://localhost:5173'] });
    const preflight = await fetch(`${server.url}/agent/run`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const put = await fetch(`${server.url}/agent/run`, { method: 'PUT' });
    expect(put.status).toBe(405);
  });

  it.each([
    [7, 7],
    ['byte' as const, 1],
    [1000, 1000],
  ])('re-chunks to %s: every write that size but the last, same bytes', async (rechunk, size) => {
    const server = await serve({ rechunk });
    const { sizes, body: served } = await rawChunks(server, '/agent/run');
    expect(served.equals(RUN)).toBe(true);
    expect(sizes.slice(0, -1).every((s) => s === size)).toBe(true);
    expect(sizes.at(-1)).toBeLessThanOrEqual(size);
    expect(sizes.length).toBe(Math.ceil(RUN.length / size));
  });

  it('without re-chunking writes the recorded chunks as they were', async () => {
    const server = await serve();
    const { sizes } = await rawChunks(server, '/agent/run');
    expect(sizes).toEqual(
      Array.from({ length: Math.ceil(RUN.length / 300) }, (_, i) => Math.min(300, RUN.length - i * 300)),
    );
  });

  it('serves a raw SSE capture file as it is', async () => {
    const server = await serve({ path: fixturePath('example_1.raw.sse'), rechunk: 4096 });
    const served = await body(await post(`${server.url}/agent/run`));
    expect(served.equals(Buffer.from(readFixture('example_1.raw.sse')))).toBe(true);
  });

  it('replays a recorded error response with its status and body', async () => {
    const path = join(dir, 'error.recording');
    const recorder = await createRecorder(path);
    const leg = recorder.startLeg({ method: 'POST', url: 'http://h/agent/run', headers: [], body: '{}' });
    recorder.response(
      leg,
      {
        status: 422,
        statusText: 'Unprocessable Entity',
        headers: [['content-type', 'application/json']],
      },
      false,
    );
    recorder.chunk(leg, Buffer.from('{"detail":[{"msg":"field required"}]}'), 1);
    recorder.endLeg(leg, { reason: 'done' });
    await recorder.close();
    const server = await serve({ path });
    const response = await post(`${server.url}/agent/run`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"detail":[{"msg":"field required"}]}');
  });

  it('waits out a recorded gap of 2^31 ms or more on the real clock instead of sending the next chunk at once', async () => {
    const path = join(dir, 'weeks.recording');
    const recorder = await createRecorder(path, { now: () => 0 });
    const leg = recorder.startLeg({ method: 'POST', url: 'http://h/agent/run', headers: [], body: '{}' });
    recorder.response(leg, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
    recorder.chunk(leg, Buffer.from('data: first\n\n'), 0);
    recorder.chunk(leg, Buffer.from('data: weeks later\n\n'), 2 ** 31 + 1000);
    recorder.endLeg(leg, { reason: 'done' });
    await recorder.close();
    const server = await serve({ path, speed: 1 });
    const reader = ((await post(`${server.url}/agent/run`)).body as ReadableStream<Uint8Array>).getReader();
    const received: string[] = [];
    const reading = (async () => {
      for (let next = await reader.read(); !next.done; next = await reader.read())
        received.push(Buffer.from(next.value).toString());
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.join('')).toBe('data: first\n\n');
    await reader.cancel();
    await reading;
  });

  it('paces the bytes by the injected clock: nothing more until the recorded gaps have passed', async () => {
    const clock = createManualClock();
    const server = await serve({ speed: 2, clock });
    const response = await post(`${server.url}/agent/run`);
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const received: Buffer[] = [];
    // One read is kept pending across calls, so a read that outlives its wait is not lost.
    let pending: ReturnType<typeof reader.read> | null = null;
    /** Reads what arrives within `ms` of real time; true when the body ended. */
    const readFor = async (ms: number) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        pending ??= reader.read();
        const next = await Promise.race([
          pending,
          new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
        ]);
        if (next === null) return false;
        pending = null;
        if (next.done) return true;
        received.push(Buffer.from(next.value));
      }
      return false;
    };
    // The first chunk has no gap before it; the next is 10 recorded ms (5 at ×2) later.
    await readFor(150);
    expect(Buffer.concat(received).equals(RUN.subarray(0, 300))).toBe(true);
    await clock.advance(4);
    await readFor(50);
    expect(Buffer.concat(received).length).toBe(300);
    await clock.advance(1);
    await readFor(100);
    expect(Buffer.concat(received).equals(RUN.subarray(0, 600))).toBe(true);
    // The rest: keep time moving until the body ends (each gap is registered after the last write).
    let ended = false;
    for (let i = 0; i < 200 && !ended; i++) {
      await clock.advance(10);
      ended = await readFor(10);
    }
    expect(ended).toBe(true);
    expect(Buffer.concat(received).equals(RUN)).toBe(true);
  });

  it('rejects a speed out of range and a bad re-chunk size', async () => {
    await expect(serve({ speed: 50 })).rejects.toThrow('between ×0.25 and ×20');
    await expect(serve({ rechunk: 0 })).rejects.toThrow('whole number of bytes');
  });
});
