import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { openSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import type { ProxyState, SessionSummary } from '../../../src-shared/contract/payloads';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { untilSettled } from '../../cli/commands/record';
import { readFixture } from '../../testing/fixtures';
import { retainedHeap } from '../../testing/memory';
import { SSE_HEADERS, sleep, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import { readAll } from '../demo-agent/testing/http';
import { openSource } from '../importers';
import { createRecorder, openFileSink } from '../recording/recorder';
import { createDefaultSessionService } from '../../hosts/default-service';
import { MAX_BACKLOG_BYTES } from '../sessions/recorder-port';
import { createSessionService } from '../sessions/session-service';
import { whenEvent } from '../sessions/service-testing';
import type { SessionService } from '../sessions/session-service';

const CANARY = 'canary-proxy-5c1e';
/** How long the memory soak streams; PROXY_SOAK_SECONDS=120 for the long run. */
const SOAK_SECONDS = Number(process.env['PROXY_SOAK_SECONDS'] ?? 3);
/** Envelopes the memory soak pours through at least, however long a loaded machine takes. */
const SOAK_MIN_ENVELOPES = 20_000;
let dir: string;
let service: SessionService;
let agent: DemoAgent | undefined;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-proxy-'));
  service = createDefaultSessionService();
});
afterEach(async () => {
  await service.dispose();
  await agent?.close();
  await server?.close();
  agent = server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function proxyTo(target: string, record = true): Promise<ProxyState> {
  return service.startProxy({ port: 0, target, ...(record ? { recordDir: dir } : {}) });
}

/** The session the proxy opened for an exchange, once it has settled. */
async function settledSessionOf(path: string): Promise<SessionSummary> {
  const current = await service.getProxy();
  const sessionId = await whenEvent(
    service.onProxyChanged,
    (state) => state?.exchanges.find((e) => e.path === path && e.sessionId)?.sessionId,
    `the session of ${path}`,
    current ? { current } : {},
  );
  return untilSettled(
    service,
    sessionId,
    (s) => s.state === 'complete' || s.state === 'failed' || s.state === 'stopped' || s.awaitingTools,
  );
}

async function allRows(sessionId: string) {
  const page = await service.getRows({ sessionId, start: 0, count: 10_000 });
  return page.rows;
}

describe('recording proxy', () => {
  it('streams the exact bytes the server wrote, in its chunks, and records them', async () => {
    // Cut inside multi-byte UTF-8 sequences, with CRLF and a comment line: nothing may be re-encoded.
    const expected = new TextEncoder().encode(
      'data: {"type":"text","agent":"a","final":false,"delta":"héllo 😀"}\r\n\r\n: keep-alive\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n',
    );
    const cuts = [expected.indexOf(0xc3) + 1, expected.indexOf(0xf0) + 2, expected.indexOf(0x0d) + 1, expected.length];
    const parts = cuts.map((end, i) => expected.subarray(i === 0 ? 0 : cuts[i - 1], end));
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const part of parts) {
        res.write(part);
        await sleep(10);
      }
      res.end();
    });
    const state = await proxyTo(server.url);
    const response = await fetch(`${state.url}/agent/run?token=${CANARY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${CANARY}` },
      body: '{"user_prompt":"hi"}',
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { bytes, error } = await readAll(response);
    expect(error).toBeNull();
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    // The server saw the request unchanged (body, credentials), with the target's Host.
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: `/agent/run?token=${CANARY}`,
      body: '{"user_prompt":"hi"}',
    });
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${CANARY}`);
    expect(server.requests[0]!.headers['host']).toBe(`127.0.0.1:${server.port}`);

    // The list shows the path with its token redacted.
    const summary = await settledSessionOf('/agent/run?token=[redacted]');
    expect(summary).toMatchObject({ state: 'complete', bytes: expected.length, envelopes: 3 });
    const raw = await service.getRawBytes({ sessionId: summary.id, leg: 0, byteStart: 0, byteEnd: expected.length });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(expected))).toBe(true);
    // The recording holds the same chunks, and no secret.
    const [file] = await readdir(dir);
    const source = await openSource(join(dir, file!));
    const recorded: Uint8Array[] = [];
    for await (const chunk of source.legs[0]!.chunks) recorded.push(chunk.bytes);
    expect(Buffer.from(concatBytes(recorded)).equals(Buffer.from(expected))).toBe(true);
    expect(JSON.stringify(source.legs[0]!.request)).not.toContain(CANARY);
  });

  it('with the demo agent as target: the client gets every byte and the session shows every envelope', async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    const state = await proxyTo(agent.url);
    const response = await fetch(`${state.url}/agent/run?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_prompt: 'x', scenario: 'subagents' }),
    });
    const { bytes } = await readAll(response);
    const atClient = decodeBytes(bytes);
    expect(atClient.envelopes.length).toBeGreaterThan(50);

    const summary = await settledSessionOf('/agent/run?format=json');
    expect(summary.bytes).toBe(bytes.length);
    const rows = await allRows(summary.id);
    expect(rows.map((r) => [r.type, r.agent, r.final])).toEqual(
      atClient.envelopes.map((e) => [e.type, e.agent, e.final]),
    );
    const raw = await service.getRawBytes({ sessionId: summary.id, leg: 0, byteStart: 0, byteEnd: bytes.length });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    // The filter language runs over the proxied session like any other.
    const subs = await service.filterRows({
      sessionId: summary.id,
      expression: 'type == "meta_init" && agent != "main"',
    });
    expect(subs.seqs).toHaveLength(2);
  });

  it('continues a paused run: the frontend tool_results POST becomes the next leg of its session', async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    const state = await proxyTo(agent.url);
    const run = await fetch(`${state.url}/agent/run?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }),
    });
    const paused = decodeBytes((await readAll(run)).bytes);
    const awaiting = paused.blocks.find((b) => b.kind === 'awaiting_frontend_tools')!;
    const summary = await settledSessionOf('/agent/run?format=json');
    expect(summary.awaitingTools).toBe(true);

    const body = {
      agent_uuid: awaiting.agent,
      tool_results: awaiting.pendingTools!.map((t) => ({ tool_use_id: t.toolUseId, content: 'yes', is_error: false })),
    };
    const continuation = await fetch(`${state.url}/agent/tool_results?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const continued = await readAll(continuation);
    expect(continued.bytes.length).toBeGreaterThan(0);
    const after = await untilSettled(service, summary.id, (s) => s.legs === 2 && s.state === 'complete');
    expect(after.envelopes).toBe(paused.envelopes.length + decodeBytes(continued.bytes).envelopes.length);
    const detail = await service.getSession({ sessionId: summary.id });
    expect(detail.legs.map((l) => l.kind)).toEqual(['run', 'tool-results']);
    expect((await readdir(dir)).length).toBe(1);
  });

  it('forwards and lists requests that are not streams, and answers 502 when the target is down', async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    const state = await proxyTo(agent.url, false);
    const listing = await fetch(`${state.url}/agent/scenarios`);
    expect(listing.status).toBe(200);
    const direct = await fetch(`${agent.url}/agent/scenarios`);
    expect(await listing.text()).toBe(await direct.text());
    const missing = await fetch(`${state.url}/nowhere`);
    expect(missing.status).toBe(404);
    await missing.text();
    const list = (await service.getProxy())!.exchanges;
    expect(list.map((e) => [e.method, e.path, e.status, e.sessionId])).toEqual([
      ['GET', '/agent/scenarios', 200, undefined],
      ['GET', '/nowhere', 404, undefined],
    ]);
    expect((await service.listSessions()).length).toBe(0);

    await service.stopProxy();
    const down = await service.startProxy({ port: 0, target: 'http://127.0.0.1:1' });
    const refused = await fetch(`${down.url}/agent/run`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain('could not reach http://127.0.0.1:1');
  });

  it('a stream the server cuts is a failed session, cut at the client too, every byte kept', async () => {
    const head = 'data: {"type":"text","agent":"a","final":false,"delta":"partial"}\n\ndata: {"type":"te';
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(head);
      // Cut once the proxy has passed the head on, so that the cut comes after it.
      await whenEvent(
        service.onProxyChanged,
        (state) => (state?.exchanges[0]?.bytes ?? 0) >= head.length,
        'the head to pass',
      );
      res.destroy();
    });
    const state = await proxyTo(server.url);
    const response = await fetch(`${state.url}/agent/run`, { method: 'POST', body: '{}' });
    const { bytes, error } = await readAll(response);
    expect(error).not.toBeNull();
    expect(new TextDecoder().decode(bytes)).toBe(head);
    const summary = await settledSessionOf('/agent/run');
    expect(summary).toMatchObject({ state: 'failed', bytes: head.length });
    const detail = await service.getSession({ sessionId: summary.id });
    expect(detail.legs[0]!.end).toMatchObject({ reason: 'failed' });
    const exchange = (await service.getProxy())!.exchanges[0]!;
    expect(exchange.error).toMatch(/broke off/);
  });

  it('a session that cannot keep the stream (a full disk) fails, saying why, while the client still gets every byte', async () => {
    // More than the spool's write buffer holds, so that it writes to the disk mid-stream.
    const expected = readFixture('example_1.raw.sse');
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let at = 0; at < expected.length; at += 4096) {
        res.write(expected.subarray(at, at + 4096));
        await sleep(1);
      }
      res.end();
    });
    await service.dispose();
    // /dev/full takes no byte: every write of the session's spool fails with ENOSPC.
    service = createDefaultSessionService({ openSpool: () => ({ fd: openSync('/dev/full', 'r+'), path: null }) });
    const errors: string[] = [];
    service.onError((error) => errors.push(error.message));
    const state = await proxyTo(server.url, false);
    const response = await fetch(`${state.url}/agent/run`, { method: 'POST', body: '{}' });
    const { bytes, error } = await readAll(response);
    expect(error).toBeNull();
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    const summary = await settledSessionOf('/agent/run');
    expect(summary.state).toBe('failed');
    expect(summary.failure?.message).toMatch(/^Writing the session's raw bytes to disk failed: ENOSPC/);
    expect(errors).toEqual([summary.failure?.message]);
    const detail = await service.getSession({ sessionId: summary.id });
    expect(detail.legs[0]!.end).toEqual({ reason: 'failed', message: summary.failure?.message });
  });

  it('a frontend that goes away stops the upstream request and the session', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      // One event, then the stream stays open until the proxy lets it go.
      res.write(`data: {"type":"text","agent":"a","final":false,"delta":"0"}\n\n`);
      await once(res, 'close');
    });
    const state = await proxyTo(server.url, false);
    const controller = new AbortController();
    const response = await fetch(`${state.url}/agent/run`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await server.clientClosed(0);
    const summary = await settledSessionOf('/agent/run');
    expect(summary.state).toBe('stopped');
    expect(summary.envelopes).toBe(1);
  });

  it('slows the upstream read to a slow client instead of buffering (backpressure)', async () => {
    const TOTAL = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      while (written < TOTAL && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) await once(res, 'drain');
      }
      res.end();
    });
    const state = await proxyTo(server.url, false);
    const response = await new Promise<IncomingMessage>((resolve) => httpRequest(`${state.url}/big`, resolve).end());
    response.pause();
    // Until the server is held back: nothing more went out for 100 ms (or all of it went out).
    for (let last = -1, waited = 0; written !== last && written < TOTAL && waited < 10_000; waited += 100) {
      last = written;
      await sleep(100);
    }
    // Only what the sockets' buffers hold has left the server while the client reads nothing.
    const whilePaused = written;
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(TOTAL / 2);
    // Real time: the server must stay held back, and that can only be seen by waiting.
    await sleep(200);
    expect(written - whilePaused).toBeLessThan(1024 * 1024);
    let received = 0;
    response.on('data', (c: Buffer) => (received += c.length));
    response.resume();
    await once(response, 'end');
    expect(received).toBe(TOTAL);
  });

  it('a recording on a slow disk holds the server back instead of queueing the stream, and stopping waits for no backlog', async () => {
    // Mostly an SSE comment, which the decoder skips quickly: the disk, not decoding, is what holds the stream back.
    const event = (n: number): string =>
      `: ${'x'.repeat(64 * 1024)}\ndata: {"type":"text","agent":"a","final":false,"delta":"${n}"}\n\n`;
    const total = 48 * 1024 * 1024;
    let sent = 0;
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let n = 0; sent < total && !res.destroyed; n++) {
        const part = event(n);
        sent += part.length;
        if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    // A disk that takes nothing but the file's header until it is opened.
    let open = (): void => undefined;
    const disk = new Promise<void>((resolve) => (open = resolve));
    let writes = 0;
    await service.dispose();
    service = createSessionService({
      openSource,
      createRecorder: (path, options) =>
        createRecorder(path, {
          ...options,
          openSink: async (file) => {
            const sink = await openFileSink(file);
            return {
              write: async (data) => (writes++ > 0 && (await disk), sink.write(data)),
              close: () => sink.close(),
            };
          },
        }),
    });
    const state = await proxyTo(server.url);
    const response = await new Promise<IncomingMessage>((resolve) =>
      httpRequest(`${state.url}/agent/run`, resolve).end(),
    );
    let received = 0;
    response.on('data', (c: Buffer) => (received += c.length));
    // Until the stream stalls (the disk holds it back) or the server has sent all of it.
    for (let last = -1, t = 0; received !== last && sent < total && t < 10_000; t += 500) {
      last = received;
      await sleep(500);
    }
    // What the server got out: the recording's backlog (base64 takes 4/3 of the bytes), the
    // socket buffers of both hops and one read each; never the stream.
    expect(received).toBeGreaterThan(0);
    expect(sent).toBeLessThan(MAX_BACKLOG_BYTES + 12 * 1024 * 1024);
    open();
    const stopping = performance.now();
    await service.dispose();
    expect(performance.now() - stopping).toBeLessThan(2000);
  });

  it(
    `memory soak: a stream of at least ${SOAK_MIN_ENVELOPES} envelopes pouring through for ${SOAK_SECONDS} s or more keeps a fixed backlog and a live session's index, and gives it all back when closed`,
    { timeout: 120_000 + SOAK_SECONDS * 2000 },
    async () => {
      // Short text blocks, each closed by its final chunk: what stays is the session's index, not open content.
      const AGENT = '11111111-1111-4111-8111-111111111111';
      const block = Array.from(
        { length: 20 },
        (_, i) =>
          `data: {"type":"text","agent":"${AGENT}","final":${i === 19},"delta":"${i === 19 ? '' : 'word '}"}\n\n`,
      ).join('');
      const BLOCKS_PER_BURST = 50;
      const burst = Buffer.from(block.repeat(BLOCKS_PER_BURST));
      const minBursts = Math.ceil(SOAK_MIN_ENVELOPES / (20 * BLOCKS_PER_BURST));
      // At least so many envelopes, however slowly a loaded machine pours them (a bound checked
      // against too few envelopes proves little), and for at least the soak's time.
      const until = performance.now() + SOAK_SECONDS * 1000;
      server = await startLoopbackServer(async (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        for (let sent = 0; !res.destroyed && (sent < minBursts || performance.now() < until); sent++)
          if (!res.write(burst)) await new Promise((r) => res.once('drain', r));
        res.end('data: [DONE]\n\n');
      });
      const state = await proxyTo(server.url);
      const baseline = retainedHeap();
      const response = await new Promise<IncomingMessage>((resolve) =>
        httpRequest(`${state.url}/agent/run`, resolve).end(),
      );
      response.resume();
      let peak = 0;
      let ended = false;
      const end = once(response, 'end').then(() => (ended = true));
      // Sampled twice a second while the stream pours through, after full collections.
      while (!ended) {
        await Promise.race([sleep(500), end]);
        peak = Math.max(peak, retainedHeap() - baseline);
      }
      const summary = await settledSessionOf('/agent/run');
      expect(summary.state).toBe('complete');
      // Bounded: the recording's backlog and write buffer (fixed), and per envelope what a live
      // session keeps: about 20–24 B of index plus the blocks' records, about 220 B per finished
      // block of 20 envelopes here (docs/performance.md) — 30–35 B in all. A copy of each event's
      // line or chunk kept besides would add over 100 B more.
      expect(summary.envelopes).toBeGreaterThanOrEqual(SOAK_MIN_ENVELOPES);
      expect(peak).toBeLessThan(MAX_BACKLOG_BYTES + 4 * 1024 * 1024 + 128 * summary.envelopes);
      await service.closeSession({ sessionId: summary.id });
      expect(retainedHeap() - baseline).toBeLessThan(8 * 1024 * 1024);
    },
  );
});
