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
import { SSE_HEADERS, sleep, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import { readAll } from '../demo-agent/testing/http';
import { openSource } from '../importers';
import { createDefaultSessionService } from '../../hosts/default-service';
import type { SessionService } from '../sessions/session-service';

const CANARY = 'canary-proxy-5c1e';
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
  for (;;) {
    const exchange = (await service.getProxy())?.exchanges.find((e) => e.path === path && e.sessionId);
    if (exchange?.sessionId) return untilSettled(service, exchange.sessionId, (s) => s.state === 'complete' || s.state === 'failed' || s.state === 'stopped' || s.awaitingTools);
    await sleep(5);
  }
}

async function allRows(sessionId: string) {
  const page = await service.getRows({ sessionId, start: 0, count: 10_000 });
  return page.rows;
}

describe('recording proxy', () => {
  it('streams the exact bytes the server wrote, in its chunks, and records them', async () => {
    // Cut inside multi-byte UTF-8 sequences, with CRLF and a comment line: nothing may be re-encoded.
    const expected = new TextEncoder().encode('data: {"type":"text","agent":"a","final":false,"delta":"héllo 😀"}\r\n\r\n: keep-alive\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n');
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
    const response = await fetch(`${state.url}/agent/run?token=${CANARY}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CANARY}` }, body: '{"user_prompt":"hi"}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { bytes, error } = await readAll(response);
    expect(error).toBeNull();
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    // The server saw the request unchanged (body, credentials), with the target's Host.
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: `/agent/run?token=${CANARY}`, body: '{"user_prompt":"hi"}' });
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${CANARY}`);
    expect(server.requests[0]!.headers['host']).toBe(`127.0.0.1:${server.port}`);

    const summary = await settledSessionOf(`/agent/run?token=${CANARY}`);
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
    const response = await fetch(`${state.url}/agent/run?format=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_prompt: 'x', scenario: 'subagents' }) });
    const { bytes } = await readAll(response);
    const atClient = decodeBytes(bytes);
    expect(atClient.envelopes.length).toBeGreaterThan(50);

    const summary = await settledSessionOf('/agent/run?format=json');
    expect(summary.bytes).toBe(bytes.length);
    const rows = await allRows(summary.id);
    expect(rows.map((r) => [r.type, r.agent, r.final])).toEqual(atClient.envelopes.map((e) => [e.type, e.agent, e.final]));
    const raw = await service.getRawBytes({ sessionId: summary.id, leg: 0, byteStart: 0, byteEnd: bytes.length });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    // The filter language runs over the proxied session like any other.
    const subs = await service.filterRows({ sessionId: summary.id, expression: 'type == "meta_init" && agent != "main"' });
    expect(subs.seqs).toHaveLength(2);
  });

  it('continues a paused run: the frontend tool_results POST becomes the next leg of its session', async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    const state = await proxyTo(agent.url);
    const run = await fetch(`${state.url}/agent/run?format=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }) });
    const paused = decodeBytes((await readAll(run)).bytes);
    const awaiting = paused.blocks.find((b) => b.kind === 'awaiting_frontend_tools')!;
    const summary = await settledSessionOf('/agent/run?format=json');
    expect(summary.awaitingTools).toBe(true);

    const body = { agent_uuid: awaiting.agent, tool_results: awaiting.pendingTools!.map((t) => ({ tool_use_id: t.toolUseId, content: 'yes', is_error: false })) };
    const continuation = await fetch(`${state.url}/agent/tool_results?format=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
      await sleep(50);
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
      for (let i = 0; i < 200 && !res.destroyed; i++) {
        res.write(`data: {"type":"text","agent":"a","final":false,"delta":"${i}"}\n\n`);
        await sleep(10);
      }
      res.end();
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
    expect(summary.envelopes).toBeLessThan(200);
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
    await sleep(400);
    // Only what the sockets' buffers hold has left the server while the client reads nothing.
    const whilePaused = written;
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(TOTAL / 2);
    await sleep(200);
    expect(written - whilePaused).toBeLessThan(1024 * 1024);
    let received = 0;
    response.on('data', (c: Buffer) => (received += c.length));
    response.resume();
    await once(response, 'end');
    expect(received).toBe(TOTAL);
  });
});
