import { openSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, sleep, startLoopbackServer, writeSlowly, type LoopbackHandler, type LoopbackServer } from '../connection/loopback-testing';
import { recordEvents, settled, waitFor, type EventLog } from './service-testing';
import { createSessionService, type SessionService } from './session-service';
import { reconnectDelay } from './sources/live-session';
import { createTempSpool } from './store/spool-file';

let server: LoopbackServer | undefined;
let service: SessionService | undefined;
let events: EventLog | undefined;

afterEach(async () => {
  events?.dispose();
  await service?.dispose();
  await server?.close();
  server = service = events = undefined;
});

async function setup(handler: LoopbackHandler): Promise<{ server: LoopbackServer; service: SessionService; events: EventLog }> {
  server = await startLoopbackServer(handler);
  service = createSessionService();
  events = recordEvents(service);
  return { server, service, events };
}

/** Splits bytes into pieces of `size` (the last may be shorter). */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const FRONTEND = readFixture('frontend_tools.json.sse');
const RESUME = readFixture('frontend_tools_resume.json.sse');
const AGENT = '55555555-5555-4555-8555-555555555555';

describe('live sessions', () => {
  it('decodes a streamed POST into rows, blocks and a pending frontend tool, batched', async () => {
    const { server, service, events } = await setup(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, pieces(FRONTEND, 700), 5);
    });
    const summary = await service.connect({
      url: `${server.url}/agent/run`,
      method: 'POST',
      headers: [['Authorization', 'Bearer canary-7f3a']],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'What is 12 * 7?', agent_type: 'agent_frontend_tools' }) },
    });
    expect(summary.source).toEqual({ kind: 'live', method: 'POST', url: `${server.url}/agent/run` });
    const done = await settled(service, summary.id);

    const expected = decodeBytes(FRONTEND);
    expect(done).toMatchObject({ state: 'complete', httpStatus: 200, envelopes: expected.envelopes.length, bytes: FRONTEND.length, format: 'json', awaitingTools: true });
    const rows = events.rows(summary.id);
    expect(rows.map((r) => r.type)).toEqual(expected.envelopes.map((e) => e.type));
    expect(rows.at(-1)).toMatchObject({ type: '[DONE]', control: 'done' });
    expect(rows.find((r) => r.type === 'tool_call')).toMatchObject({ toolId: 'toolu_synth_mul', name: 'multiply', agent: AGENT });

    const detail = await service.getSession({ sessionId: summary.id });
    expect(detail.pendingTools).toMatchObject({
      leg: 0,
      agentUuid: AGENT,
      answered: 'no',
      tools: [{ toolUseId: 'toolu_synth_confirm', name: 'user_confirm', input: { message: 'The product is 84 (over 50). Proceed with saving the report?' } }],
      defaultPath: '/agent/tool_results',
      defaultExtraBody: { agent_type: 'agent_frontend_tools' },
    });
    // What the renderer sees of the request is redacted.
    expect(detail.request?.headers).toEqual([['Authorization', '[redacted]'], ['Content-Type', 'application/json']]);
    expect(JSON.stringify([events.batches, events.lists, events.statuses, detail])).not.toContain('canary-7f3a');
    // Batched: far fewer batch events than envelopes.
    expect(events.batches.filter((b) => b.sessionId === summary.id).length).toBeLessThan(expected.envelopes.length);
  });

  it('hands out contents on demand: envelope, frame rebuilt from the bytes, raw bytes with their chunks, blocks', async () => {
    const { server, service } = await setup(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, pieces(FRONTEND, 1000), 5);
    });
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    await settled(service, id);
    const expected = decodeBytes(FRONTEND);

    const envelope = await service.getEnvelope({ sessionId: id, seq: 1 });
    expect(envelope).toMatchObject({ type: 'text', delta: 'Let me compute th', leg: 0, dialect: 'json' });
    const frame = await service.getFrame({ sessionId: id, leg: 0, seq: 1 });
    expect(frame.data).toBe(expected.frames[0]![1]!.data);
    expect(frame).toMatchObject({ byteStart: expected.frames[0]![1]!.byteStart, byteEnd: expected.frames[0]![1]!.byteEnd });

    const raw = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: frame.byteStart, byteEnd: frame.byteEnd });
    expect(Buffer.from(raw.base64, 'base64').toString('utf8')).toBe(Buffer.from(FRONTEND.subarray(frame.byteStart, frame.byteEnd)).toString('utf8'));
    expect(raw.chunks[0]!.byteStart).toBeLessThanOrEqual(frame.byteStart);
    expect(raw.chunks.at(-1)!.byteEnd).toBeGreaterThanOrEqual(frame.byteEnd);

    const blocks = await service.getBlocks({ sessionId: id });
    expect(blocks.map((b) => b.kind)).toEqual(expected.blocks.map((b) => b.kind));
    const text = blocks.find((b) => b.kind === 'text')!;
    expect((await service.getBlock({ sessionId: id, block: text.id })).content).toBe('Let me compute that, render a chart, then ask you to confirm.');
    // A bare string searches delta, type, agent, id and name in any case.
    const found = await service.filterRows({ sessionId: id, expression: '"RENDER_CHART"' });
    expect(found.seqs.length).toBeGreaterThan(0);
    await expect(service.filterRows({ sessionId: id, expression: 'typ == "text"' })).rejects.toThrow(/Unknown field 'typ'/);
    // Regression: text split across envelopes ("compute th" + "at, …") was not found; it lands on both.
    const envelopeOf = async (seq: number) => (await service.getEnvelope({ sessionId: id, seq })).delta;
    const split = await service.filterRows({ sessionId: id, expression: '"compute that"' });
    expect(split.seqs).toEqual([1, 2]);
    expect((await envelopeOf(1)).includes('compute that')).toBe(false);
    expect(`${await envelopeOf(1)}${await envelopeOf(2)}`).toContain('compute that');
    await expect(service.getEnvelope({ sessionId: id, seq: 10_000 })).rejects.toThrow(/has no envelope 10000/);
    await expect(service.getRows({ sessionId: 'nope', start: 0, count: 1 })).rejects.toThrow(/Unknown session 'nope'/);
  });

  it('reports a server closing mid-event as a failed, truncated session that keeps every byte', async () => {
    const partial = 'data: {"type":"text","agent":"a","final":false,"delta":"one"}\n\ndata: {"type":"text","agent":"a","fin';
    const { server, service, events } = await setup(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(partial);
      await sleep(20);
      res.socket?.destroy();
    });
    const { id } = await service.connect({ url: `${server.url}/cut`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure?.kind).toBe('aborted');
    const rules = (await service.getDiagnostics({ sessionId: id })).map((d) => d.rule);
    expect(rules).toContain('sse.unterminated-event');
    expect(rules).toContain('stream.missing-done');
    const raw = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: 0, byteEnd: 10_000 });
    expect(Buffer.from(raw.base64, 'base64').toString('utf8')).toBe(partial);
    expect(events.errors).toEqual([expect.objectContaining({ sessionId: id, kind: 'aborted' })]);
  });

  it('ends a session whose spool file cannot be written (a full disk) as failed, cut off, with what it kept viewable', async () => {
    const stream = readFixture('example_1.raw.sse');
    let serverSawClose = false;
    let written = 0;
    server = await startLoopbackServer(async (req, res) => {
      req.on('close', () => (serverSawClose = true));
      res.writeHead(200, SSE_HEADERS);
      for (const piece of pieces(stream, 4096)) {
        if (res.destroyed) return;
        res.write(piece);
        written += piece.length;
        await sleep(2);
      }
      res.end();
    });
    // /dev/full takes no byte: every write fails with ENOSPC, as on a full disk.
    service = createSessionService({ openSpool: () => ({ fd: openSync('/dev/full', 'r+'), path: null }) });
    events = recordEvents(service);
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure).toMatchObject({ kind: 'internal', code: 'ENOSPC', message: expect.stringMatching(/^Writing the session's raw bytes to disk failed: ENOSPC: no space left on device/) as unknown });
    expect(events.errors).toEqual([expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message })]);
    await waitFor(() => serverSawClose, 'the server to see the connection closed');
    expect(written).toBeLessThan(stream.length);
    // What was received before the failed write is still there: its rows, and its raw bytes exactly.
    const kept = done.bytes;
    expect(kept).toBeGreaterThan(0);
    expect((await service.getRows({ sessionId: id, start: 0, count: 5 })).rows.length).toBeGreaterThan(0);
    const raw = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: 0, byteEnd: kept });
    expect(Buffer.from(raw.base64, 'base64').equals(Buffer.from(stream.subarray(0, kept)))).toBe(true);
  });

  it('ends as failed, not stuck, when the envelope text cannot be written', async () => {
    const delta = 'x'.repeat(1500);
    const frames = Array.from({ length: 120 }, () => `data: ${JSON.stringify({ type: 'text', agent: 'a', final: false, delta })}\n\n`);
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [...frames, 'data: [DONE]\n\n'], 1);
    });
    // Only the envelopes' text spool is on a full disk.
    service = createSessionService({ openSpool: (what) => (what === 'envelope text' ? { fd: openSync('/dev/full', 'r+'), path: null } : createTempSpool(what)) });
    events = recordEvents(service);
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure?.message).toMatch(/^Writing the session's envelope text to disk failed: ENOSPC/);
    expect((await service.getRows({ sessionId: id, start: 0, count: 5 })).rows.length).toBeGreaterThan(0);
  });

  it('ends as failed, not streaming, when the text written as the leg ends cannot be written', async () => {
    // Frames of no known format are held until the leg ends, and decoded then: their text is
    // written to the spool only as the leg ends (here more than the write buffer holds).
    const held = `data: ${JSON.stringify({ note: 'x'.repeat(70_000) })}\n\n`;
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(held);
    });
    service = createSessionService({ openSpool: (what) => (what === 'envelope text' ? { fd: openSync('/dev/full', 'r+'), path: null } : createTempSpool(what)) });
    events = recordEvents(service);
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.failure).toMatchObject({ kind: 'internal', code: 'ENOSPC', message: expect.stringMatching(/^Writing the session's envelope text to disk failed: ENOSPC/) as unknown });
    expect(events.errors).toEqual([expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message })]);
    // The leg says so too (not "complete", not "the session was closed").
    expect((await service.getSession({ sessionId: id })).legs[0]?.end).toEqual({ reason: 'failed', message: done.failure?.message });
  });

  it('ends as failed, not streaming or complete, when the findings written as the session finishes cannot be written', async () => {
    // Each block left open is reported only as the session finishes, after the leg ended
    // complete: 400 findings, more than the write buffer holds.
    const frames = Array.from({ length: 400 }, (_, i) => `data: ${JSON.stringify({ type: 'text', agent: `a${i}`, final: false, delta: 'x' })}\n\n`);
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end([...frames, 'data: [DONE]\n\n'].join(''));
    });
    service = createSessionService({ openSpool: (what) => (what === 'findings' ? { fd: openSync('/dev/full', 'r+'), path: null } : createTempSpool(what)) });
    events = recordEvents(service);
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('failed');
    expect(done.envelopes).toBe(401);
    expect(done.failure).toMatchObject({ kind: 'internal', code: 'ENOSPC', message: expect.stringMatching(/^Writing the session's findings to disk failed: ENOSPC/) as unknown });
    expect(events.errors).toEqual([expect.objectContaining({ sessionId: id, kind: 'internal', message: done.failure?.message })]);
  });

  it('closes a session paused on frontend tools even when the findings written as it finishes cannot be written', async () => {
    const open = Array.from({ length: 400 }, (_, i) => `data: ${JSON.stringify({ type: 'text', agent: `a${i}`, final: false, delta: 'x' })}\n\n`).join('');
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.concat([Buffer.from(open), FRONTEND]));
    });
    service = createSessionService({ openSpool: (what) => (what === 'findings' ? { fd: openSync('/dev/full', 'r+'), path: null } : createTempSpool(what)) });
    const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
    expect(await settled(service, id)).toMatchObject({ state: 'complete', awaitingTools: true });
    // Closing finishes the session (its open blocks reported): that write fails, the close does not.
    await service.closeSession({ sessionId: id });
    expect(await service.listSessions()).toEqual([]);
  });

  it('finalises a clean end mid-event as complete with the torn event diagnosed', async () => {
    const { server, service } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end('data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\ndata: {"type":"te');
    });
    const { id } = await service.connect({ url: `${server.url}/torn`, method: 'GET', headers: [] });
    const done = await settled(service, id);
    expect(done.state).toBe('complete');
    expect(done.envelopes).toBe(1);
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toContain('sse.unterminated-event');
  });

  it('stops a live session within a second and finalises it', async () => {
    const { server, service } = await setup(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 500 && !res.destroyed; i++) {
        res.write(`data: {"type":"text","agent":"a","final":false,"delta":"${i}"}\n\n`);
        await sleep(10);
      }
      res.end();
    });
    const { id } = await service.connect({ url: `${server.url}/forever`, method: 'GET', headers: [] });
    await waitFor(async () => (await service.listSessions())[0]!.state === 'streaming', 'streaming');
    const started = performance.now();
    await service.stop({ sessionId: id });
    expect(performance.now() - started).toBeLessThan(1000);
    const [summary] = await service.listSessions();
    expect(summary!.state).toBe('stopped');
    await server.clientClosed(0);
    const count = summary!.envelopes;
    await sleep(50);
    expect((await service.listSessions())[0]!.envelopes).toBe(count);
  });

  it('shows live status with a growing idle time on a quiet stream', async () => {
    const { server, service, events } = await setup(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\n');
      await sleep(1200);
      res.end('data: [DONE]\n\n');
    });
    const { id } = await service.connect({ url: `${server.url}/quiet`, method: 'GET', headers: [] });
    await settled(service, id);
    const mine = events.statuses.filter((s) => s.sessionId === id);
    expect(mine.length).toBeGreaterThan(3);
    const quiet = mine.filter((s) => s.envelopes === 1);
    expect(Math.max(...quiet.map((s) => s.idleMs))).toBeGreaterThan(700);
    expect(mine.at(-1)).toMatchObject({ state: 'complete', httpStatus: 200, envelopes: 2 });
  });

  it.each([
    [500, 'text/plain', 'Internal error: boom'],
    [422, 'application/json', '{"detail":[{"msg":"field required"}]}'],
  ])('fails a %i response with its body shown and nothing decoded', async (status, type, body) => {
    const { server, service, events } = await setup((_req, res) => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    });
    const { id } = await service.connect({ url: `${server.url}/agent/run`, method: 'POST', headers: [], body: { kind: 'json', text: '{}' } });
    const done = await settled(service, id);
    expect(done).toMatchObject({ state: 'failed', httpStatus: status, envelopes: 0, failure: { kind: 'http-status', status, body } });
    expect(await service.getDiagnostics({ sessionId: id })).toEqual([]);
    expect(events.errors[0]).toMatchObject({ sessionId: id, kind: 'http-status' });
  });

  it('reconnects a dropped GET stream after the clamped retry, sending Last-Event-ID', async () => {
    let calls = 0;
    const { server, service } = await setup((_req, res) => {
      calls += 1;
      res.writeHead(200, SSE_HEADERS);
      if (calls === 1) res.end('retry: 10\nid: 7\ndata: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n');
      else res.end('data: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n');
    });
    const { id } = await service.connect({ url: `${server.url}/events`, method: 'GET', headers: [], reconnect: { maxAttempts: 1 } });
    const done = await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'the reconnect leg');
    expect(done.envelopes).toBe(3);
    expect(server.requests[1]!.headers['last-event-id']).toBe('7');
    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs.map((l) => l.kind)).toEqual(['run', 'reconnect']);
    expect(detail.legs[1]!.startedAt - detail.legs[0]!.endedAt!).toBeGreaterThanOrEqual(400);
  });

  it('clamps the server retry for reconnects', () => {
    expect(reconnectDelay(null)).toBe(3000);
    expect(reconnectDelay(1)).toBe(500);
    expect(reconnectDelay(10_000_000)).toBe(60_000);
  });

  it('refuses a request it cannot send, without creating a session', async () => {
    const { service } = await setup(() => {});
    await expect(service.connect({ url: 'http://127.0.0.1:1/x', method: 'POST', headers: [], reconnect: { maxAttempts: 2 } })).rejects.toThrow(/start a new agent run/);
    expect(await service.listSessions()).toEqual([]);
  });
});

describe('frontend tool results', () => {
  async function pausedSession(handler: LoopbackHandler) {
    const ctx = await setup(async (req, res, body) => {
      if (req.url?.startsWith('/agent/run')) {
        res.writeHead(200, SSE_HEADERS);
        res.end(Buffer.from(FRONTEND));
        return;
      }
      await handler(req, res, body);
    });
    const summary = await ctx.service.connect({
      url: `${ctx.server.url}/agent/run?format=json`,
      method: 'POST',
      headers: [['Authorization', 'Bearer secret-run-token']],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', agent_type: 'agent_frontend_tools' }) },
    });
    await settled(ctx.service, summary.id);
    return { ...ctx, id: summary.id };
  }

  it('POSTs the results from main and decodes the continuation as the next leg of the same session', async () => {
    const { server, service, id } = await pausedSession(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, pieces(RESUME, 500), 5);
    });
    const { leg } = await service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }] });
    expect(leg).toBe(1);
    const done = await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');

    const post = server.requests[1]!;
    expect(post.method).toBe('POST');
    expect(post.url).toBe('/agent/tool_results?format=json');
    expect(post.headers['authorization']).toBe('Bearer secret-run-token');
    expect(post.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post.body)).toEqual({
      agent_uuid: AGENT,
      tool_results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes', is_error: false }],
      agent_type: 'agent_frontend_tools',
    });
    expect(done.awaitingTools).toBe(false);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs.map((l) => l.kind)).toEqual(['run', 'tool-results']);
    expect(detail.pendingTools).toBeNull();
    const blocks = await service.getBlocks({ sessionId: id });
    const confirm = blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'toolu_synth_confirm');
    expect(confirm).toMatchObject({ leg: 1, status: 'complete' });
    // The call in leg 0 links to its result in leg 1.
    expect(blocks.find((b) => b.kind === 'tool_call' && b.toolId === 'toolu_synth_confirm')?.linkedBlock).toBe(confirm?.id);

    await expect(service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }] })).rejects.toThrow(/not waiting for frontend tool results/);
    expect(server.requests).toHaveLength(2);
  });

  it('never POSTs the same results twice, even when asked twice at once', async () => {
    const { server, service, id } = await pausedSession(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, pieces(RESUME, 500), 20);
    });
    const results = [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }];
    const first = service.sendToolResults({ sessionId: id, results });
    const second = service.sendToolResults({ sessionId: id, results });
    await expect(first).resolves.toEqual({ leg: 1 });
    await expect(second).rejects.toThrow(/still running|being sent/);
    await waitFor(async () => (await service.listSessions())[0]!.state === 'complete', 'continuation');
    expect(server.requests.filter((r) => r.url.startsWith('/agent/tool_results'))).toHaveLength(1);
  });

  it('checks the results against the pending tools before sending', async () => {
    const { server, service, id } = await pausedSession(() => {});
    await expect(service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_other', content: 'x' }] })).rejects.toThrow(
      /toolu_other is not a pending tool; no result for user_confirm \(toolu_synth_confirm\)/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('shows a rejected POST, keeps the session answerable, and re-sends only when told to', async () => {
    let attempts = 0;
    const { server, service, id } = await pausedSession((_req, res) => {
      attempts += 1;
      if (attempts === 1) {
        res.writeHead(422, { 'Content-Type': 'application/json' });
        res.end('{"detail":"tool_results: field required"}');
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(RESUME));
    });
    const results = [{ tool_use_id: 'toolu_synth_confirm', content: 'no', is_error: false }];
    await service.sendToolResults({ sessionId: id, results });
    const failed = await settled(service, id);
    expect(failed).toMatchObject({ state: 'failed', awaitingTools: true, failure: { kind: 'http-status', status: 422 } });
    expect((await service.getSession({ sessionId: id })).pendingTools?.answered).toBe('failed');

    await expect(service.sendToolResults({ sessionId: id, results })).rejects.toThrow(/failed before .*422.*confirm to send them again/);
    await service.sendToolResults({ sessionId: id, results, resend: true });
    const done = await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 3 && s.state === 'complete' ? s : undefined;
    }, 'second continuation');
    expect(done.awaitingTools).toBe(false);
    expect(server.requests).toHaveLength(3);
  });

  it('answers to an explicit path on the run origin, with edited extra body fields', async () => {
    const { server, service, id } = await pausedSession((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(RESUME));
    });
    await service.sendToolResults({
      sessionId: id,
      results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }],
      path: '/v2/agent/tool_results',
      extraBody: { agent_type: 'agent_all_json', agent_uuid: 'spoofed' },
    });
    await waitFor(async () => (await service.listSessions())[0]!.legs === 2 && (await service.listSessions())[0]!.state === 'complete', 'continuation');
    expect(server.requests[1]!.url).toBe('/v2/agent/tool_results');
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ agent_uuid: AGENT, agent_type: 'agent_all_json' });
  });
});
