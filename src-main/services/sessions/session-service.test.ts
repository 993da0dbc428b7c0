import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { SSE_HEADERS, sleep, writeSlowly } from '../connection/loopback-testing';
import { AGENT, FRONTEND, pieces, settled, useLiveSetup, waitFor } from './service-testing';
import { reconnectDelay } from './sources/live-session';

const setup = useLiveSetup();

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
      body: {
        kind: 'json',
        text: JSON.stringify({ user_prompt: 'What is 12 * 7?', agent_type: 'agent_frontend_tools' }),
      },
    });
    expect(summary.source).toEqual({ kind: 'live', method: 'POST', url: `${server.url}/agent/run` });
    const done = await settled(service, summary.id);

    const expected = decodeBytes(FRONTEND);
    expect(done).toMatchObject({
      state: 'complete',
      httpStatus: 200,
      envelopes: expected.envelopes.length,
      bytes: FRONTEND.length,
      format: 'json',
      awaitingTools: true,
    });
    const rows = events.rows(summary.id);
    expect(rows.map((r) => r.type)).toEqual(expected.envelopes.map((e) => e.type));
    expect(rows.at(-1)).toMatchObject({ type: '[DONE]', control: 'done' });
    expect(rows.find((r) => r.type === 'tool_call')).toMatchObject({
      toolId: 'toolu_synth_mul',
      name: 'multiply',
      agent: AGENT,
    });

    const detail = await service.getSession({ sessionId: summary.id });
    expect(detail.pendingTools).toMatchObject({
      leg: 0,
      agentUuid: AGENT,
      answered: 'no',
      tools: [
        {
          toolUseId: 'toolu_synth_confirm',
          name: 'user_confirm',
          input: { message: 'The product is 84 (over 50). Proceed with saving the report?' },
        },
      ],
      defaultPath: '/agent/tool_results',
      defaultExtraBody: { agent_type: 'agent_frontend_tools' },
    });
    // What the renderer sees of the request is redacted.
    expect(detail.request?.headers).toEqual([
      ['Authorization', '[redacted]'],
      ['Content-Type', 'application/json'],
    ]);
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
    expect(frame).toMatchObject({
      byteStart: expected.frames[0]![1]!.byteStart,
      byteEnd: expected.frames[0]![1]!.byteEnd,
    });

    const raw = await service.getRawBytes({
      sessionId: id,
      leg: 0,
      byteStart: frame.byteStart,
      byteEnd: frame.byteEnd,
    });
    expect(Buffer.from(raw.base64, 'base64').toString('utf8')).toBe(
      Buffer.from(FRONTEND.subarray(frame.byteStart, frame.byteEnd)).toString('utf8'),
    );
    expect(raw.chunks[0]!.byteStart).toBeLessThanOrEqual(frame.byteStart);
    expect(raw.chunks.at(-1)!.byteEnd).toBeGreaterThanOrEqual(frame.byteEnd);

    const blocks = await service.getBlocks({ sessionId: id });
    expect(blocks.map((b) => b.kind)).toEqual(expected.blocks.map((b) => b.kind));
    const text = blocks.find((b) => b.kind === 'text')!;
    expect((await service.getBlock({ sessionId: id, block: text.id })).content).toBe(
      'Let me compute that, render a chart, then ask you to confirm.',
    );
    // A bare string searches delta, type, agent, id and name in any case.
    const found = await service.filterRows({ sessionId: id, expression: '"RENDER_CHART"' });
    expect(found.seqs.length).toBeGreaterThan(0);
    await expect(service.filterRows({ sessionId: id, expression: 'typ == "text"' })).rejects.toThrow(
      /Unknown field 'typ'/,
    );
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
    const partial =
      'data: {"type":"text","agent":"a","final":false,"delta":"one"}\n\ndata: {"type":"text","agent":"a","fin';
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
    const { id } = await service.connect({
      url: `${server.url}/agent/run`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: '{}' },
    });
    const done = await settled(service, id);
    expect(done).toMatchObject({
      state: 'failed',
      httpStatus: status,
      envelopes: 0,
      failure: { kind: 'http-status', status, body },
    });
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
    const { id } = await service.connect({
      url: `${server.url}/events`,
      method: 'GET',
      headers: [],
      reconnect: { maxAttempts: 1 },
    });
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
    await expect(
      service.connect({ url: 'http://127.0.0.1:1/x', method: 'POST', headers: [], reconnect: { maxAttempts: 2 } }),
    ).rejects.toThrow(/start a new agent run/);
    expect(await service.listSessions()).toEqual([]);
  });
});
