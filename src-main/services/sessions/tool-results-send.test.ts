import { describe, expect, it } from 'vitest';
import { SSE_HEADERS, writeSlowly, type LoopbackHandler } from '../connection/loopback-testing';
import { AGENT, FRONTEND, RESUME, pieces, settled, useLiveSetup, waitFor } from './service-testing';

const setup = useLiveSetup();

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
    const { leg } = await service.sendToolResults({
      sessionId: id,
      results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }],
    });
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
    expect(blocks.find((b) => b.kind === 'tool_call' && b.toolId === 'toolu_synth_confirm')?.linkedBlock).toBe(
      confirm?.id,
    );

    await expect(
      service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }] }),
    ).rejects.toThrow(/not waiting for frontend tool results/);
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
    await expect(
      service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_other', content: 'x' }] }),
    ).rejects.toThrow(/toolu_other is not a pending tool; no result for user_confirm \(toolu_synth_confirm\)/);
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
    expect(failed).toMatchObject({
      state: 'failed',
      awaitingTools: true,
      failure: { kind: 'http-status', status: 422 },
    });
    expect((await service.getSession({ sessionId: id })).pendingTools?.answered).toBe('failed');

    await expect(service.sendToolResults({ sessionId: id, results })).rejects.toThrow(
      /failed before .*422.*confirm to send them again/,
    );
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
    await waitFor(
      async () =>
        (await service.listSessions())[0]!.legs === 2 && (await service.listSessions())[0]!.state === 'complete',
      'continuation',
    );
    expect(server.requests[1]!.url).toBe('/v2/agent/tool_results');
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ agent_uuid: AGENT, agent_type: 'agent_all_json' });
  });
});
