import { describe, expect, it } from 'vitest';
import { openConnection } from './connection';
import { buildRequest } from './request-spec';
import { SSE_HEADERS, sleep, writeSlowly } from './loopback-testing';
import { capture, loopbackPerTest, nextChunk, onClock } from './connection-testing';
import { createManualClock } from '../replay/manual-clock';

const { serve, get, server } = loopbackPerTest();

describe('a live connection streams what a loopback server sends', () => {
  it('streams a POST with headers and body, chunk by chunk, with receive times', async () => {
    await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, ['data: {"a":1}\n\n', 'data: {"a"', ':2}\n\ndata: [DONE]\n\n'], 30);
    });
    const { spec } = buildRequest({
      url: `${server().url}/agent/run?format=json`,
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
    const received = server().requests[0]!;
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
    const serverSawClose = await server().clientClosed(0);
    expect(serverSawClose - stoppedAt).toBeLessThan(1000);
    const count = sink.chunks.length;
    // Real time: nothing may arrive after stop, and absence can only be seen by waiting.
    await sleep(100);
    expect(sink.chunks.length).toBe(count);
  });
});
