import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { untilSettled } from '../../cli/commands/record';
import { SSE_HEADERS, sleep, startLoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent } from '../demo-agent/index';
import { readAll } from '../demo-agent/testing/http';
import { openSource } from '../importers';
import { whenEvent } from '../sessions/service-testing';
import { proxyHarness } from './proxy-testing';

const CANARY = 'canary-proxy-5c1e';
const h = proxyHarness();

describe('recording proxy', () => {
  it('streams the exact bytes the server wrote, in its chunks, and records them', async () => {
    // Cut inside multi-byte UTF-8 sequences, with CRLF and a comment line: nothing may be re-encoded.
    const expected = new TextEncoder().encode(
      'data: {"type":"text","agent":"a","final":false,"delta":"héllo 😀"}\r\n\r\n: keep-alive\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n',
    );
    const cuts = [expected.indexOf(0xc3) + 1, expected.indexOf(0xf0) + 2, expected.indexOf(0x0d) + 1, expected.length];
    const parts = cuts.map((end, i) => expected.subarray(i === 0 ? 0 : cuts[i - 1], end));
    const server = h.track(
      await startLoopbackServer(async (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        for (const part of parts) {
          res.write(part);
          await sleep(10);
        }
        res.end();
      }),
    );
    const state = await h.proxyTo(server.url);
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
    const summary = await h.settledSessionOf('/agent/run?token=[redacted]');
    expect(summary).toMatchObject({ state: 'complete', bytes: expected.length, envelopes: 3 });
    const raw = await h.service.getRawBytes({ sessionId: summary.id, leg: 0, byteStart: 0, byteEnd: expected.length });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(expected))).toBe(true);
    // The recording holds the same chunks, and no secret.
    const [file] = await readdir(h.dir);
    const source = await openSource(join(h.dir, file!));
    const recorded: Uint8Array[] = [];
    for await (const chunk of source.legs[0]!.chunks) recorded.push(chunk.bytes);
    expect(Buffer.from(concatBytes(recorded)).equals(Buffer.from(expected))).toBe(true);
    expect(JSON.stringify(source.legs[0]!.request)).not.toContain(CANARY);
  });

  it('with the demo agent as target: the client gets every byte and the session shows every envelope', async () => {
    const agent = h.track(await startDemoAgent({ pace: 'fast' }));
    const state = await h.proxyTo(agent.url);
    const response = await fetch(`${state.url}/agent/run?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_prompt: 'x', scenario: 'subagents' }),
    });
    const { bytes } = await readAll(response);
    const atClient = decodeBytes(bytes);
    expect(atClient.envelopes.length).toBeGreaterThan(50);

    const summary = await h.settledSessionOf('/agent/run?format=json');
    expect(summary.bytes).toBe(bytes.length);
    const rows = await h.allRows(summary.id);
    expect(rows.map((r) => [r.type, r.agent, r.final])).toEqual(
      atClient.envelopes.map((e) => [e.type, e.agent, e.final]),
    );
    const raw = await h.service.getRawBytes({ sessionId: summary.id, leg: 0, byteStart: 0, byteEnd: bytes.length });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    // The filter language runs over the proxied session like any other.
    const subs = await h.service.filterRows({
      sessionId: summary.id,
      expression: 'type == "meta_init" && agent != "main"',
    });
    expect(subs.seqs).toHaveLength(2);
  });

  it('continues a paused run: the frontend tool_results POST becomes the next leg of its session', async () => {
    const agent = h.track(await startDemoAgent({ pace: 'fast' }));
    const state = await h.proxyTo(agent.url);
    const run = await fetch(`${state.url}/agent/run?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }),
    });
    const paused = decodeBytes((await readAll(run)).bytes);
    const awaiting = paused.blocks.find((b) => b.kind === 'awaiting_frontend_tools')!;
    const summary = await h.settledSessionOf('/agent/run?format=json');
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
    const after = await untilSettled(h.service, summary.id, (s) => s.legs === 2 && s.state === 'complete');
    expect(after.envelopes).toBe(paused.envelopes.length + decodeBytes(continued.bytes).envelopes.length);
    const detail = await h.service.getSession({ sessionId: summary.id });
    expect(detail.legs.map((l) => l.kind)).toEqual(['run', 'tool-results']);
    expect((await readdir(h.dir)).length).toBe(1);
  });

  it('records every stream a connection would decode: NDJSON, the AI SDK v4 data stream and a Gemini JSON array too', async () => {
    const gemini = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';
    const bodies: Record<string, [Record<string, string>, string]> = {
      '/api/chat': [{ 'Content-Type': 'application/x-ndjson' }, '{"kind":"tick","n":1}\n{"kind":"tick","n":2}\n'],
      '/api/v4': [{ 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1' }, '0:"Hi"\nd:{}\n'],
      [gemini]: [
        { 'Content-Type': 'application/json; charset=UTF-8' },
        '[{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP"}]}]',
      ],
      // JSON answers: a list from a REST endpoint, and an object where a dialect streams arrays.
      '/api/tags': [{ 'Content-Type': 'application/json' }, '[]'],
      '/v1beta/models/other:streamGenerateContent': [{ 'Content-Type': 'application/json' }, '{"error":{}}'],
    };
    const server = h.track(
      await startLoopbackServer((req, res) => {
        const [headers, body] = bodies[req.url ?? ''] ?? [{}, ''];
        res.writeHead(200, headers);
        res.end(body);
      }),
    );
    const state = await h.proxyTo(server.url, false);
    for (const path of Object.keys(bodies)) await (await fetch(`${state.url}${path}`, { method: 'POST' })).text();
    expect(await h.settledSessionOf('/api/chat')).toMatchObject({ state: 'complete', envelopes: 2 });
    expect(await h.settledSessionOf('/api/v4')).toMatchObject({ state: 'complete', format: 'ai-sdk-ui' });
    expect(await h.settledSessionOf(gemini)).toMatchObject({
      state: 'complete',
      format: 'gemini',
      end: { kind: 'done' },
    });
    // A JSON answer is forwarded and listed, not a session.
    for (const path of ['/api/tags', '/v1beta/models/other:streamGenerateContent']) {
      const listed = (await h.service.getProxy())!.exchanges.find((e) => e.path === path);
      expect(listed, path).toMatchObject({ status: 200 });
      expect(listed?.sessionId, path).toBeUndefined();
    }
    expect((await h.service.listSessions()).length).toBe(3);
  });

  it('forwards and lists requests that are not streams, and answers 502 when the target is down', async () => {
    const agent = h.track(await startDemoAgent({ pace: 'fast' }));
    const state = await h.proxyTo(agent.url, false);
    const listing = await fetch(`${state.url}/agent/scenarios`);
    expect(listing.status).toBe(200);
    const direct = await fetch(`${agent.url}/agent/scenarios`);
    expect(await listing.text()).toBe(await direct.text());
    const missing = await fetch(`${state.url}/nowhere`);
    expect(missing.status).toBe(404);
    await missing.text();
    const list = (await h.service.getProxy())!.exchanges;
    expect(list.map((e) => [e.method, e.path, e.status, e.sessionId])).toEqual([
      ['GET', '/agent/scenarios', 200, undefined],
      ['GET', '/nowhere', 404, undefined],
    ]);
    expect((await h.service.listSessions()).length).toBe(0);

    await h.service.stopProxy();
    const down = await h.service.startProxy({ port: 0, target: 'http://127.0.0.1:1' });
    const refused = await fetch(`${down.url}/agent/run`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain('could not reach http://127.0.0.1:1');
  });

  it('a stream the server cuts is a failed session, cut at the client too, every byte kept', async () => {
    const head = 'data: {"type":"text","agent":"a","final":false,"delta":"partial"}\n\ndata: {"type":"te';
    const server = h.track(
      await startLoopbackServer(async (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(head);
        // Cut once the proxy has passed the head on, so that the cut comes after it.
        await whenEvent(
          h.service.onProxyChanged,
          (state) => (state?.exchanges[0]?.bytes ?? 0) >= head.length,
          'the head to pass',
        );
        res.destroy();
      }),
    );
    const state = await h.proxyTo(server.url);
    const response = await fetch(`${state.url}/agent/run`, { method: 'POST', body: '{}' });
    const { bytes, error } = await readAll(response);
    expect(error).not.toBeNull();
    expect(new TextDecoder().decode(bytes)).toBe(head);
    const summary = await h.settledSessionOf('/agent/run');
    expect(summary).toMatchObject({ state: 'failed', bytes: head.length });
    const detail = await h.service.getSession({ sessionId: summary.id });
    expect(detail.legs[0]!.end).toMatchObject({ reason: 'failed' });
    const exchange = (await h.service.getProxy())!.exchanges[0]!;
    expect(exchange.error).toMatch(/broke off/);
  });
});
