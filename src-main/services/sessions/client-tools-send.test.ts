import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../demo-agent/server';
import { settled, useLiveSetup, waitFor } from './service-testing';

/**
 * A run whose dialect continues itself (DialectModule.clientTools, here the AI SDK's): the
 * session service answers its pause with the request the dialect's hook builds (the run's URL
 * and headers, the conversation again with the answers) instead of the upstream agent's
 * `POST /agent/tool_results`, and decodes the continuation as the next leg. The demo agent
 * serves the streams, behind a loopback server that records what the inspector sent.
 */

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

const setup = useLiveSetup();

/** A loopback server passing every request on to the demo agent, and its answer back. */
function proxiedToDemo() {
  return setup(async (req, res, body) => {
    const answer = await fetch(`${demo.url}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
}

const chat = {
  id: 'chat-1',
  scenario: 'client-tool',
  messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete my draft' }] }],
};

describe.each([
  ['the UI message stream', '/api/chat'],
  ['the v4 data stream', '/api/chat?protocol=data'],
])('answering a client-side tool of %s', (_name, path) => {
  async function paused() {
    const ctx = await proxiedToDemo();
    const summary = await ctx.service.connect({
      url: `${ctx.server.url}${path}`,
      method: 'POST',
      headers: [['Authorization', 'Bearer chat-token']],
      body: { kind: 'json', text: JSON.stringify(chat) },
    });
    await settled(ctx.service, summary.id);
    return { ...ctx, id: summary.id };
  }

  it('the prompt says the dialect continues the run, at the run’s own path', async () => {
    const { service, id } = await paused();
    const detail = await service.getSession({ sessionId: id });
    expect(detail.summary.awaitingTools).toBe(true);
    expect(detail.pendingTools).toMatchObject({
      continuedBy: 'Vercel AI SDK UI stream',
      defaultPath: path,
      defaultExtraBody: {},
      tools: [{ toolUseId: 'call_confirm', name: 'user_confirm' }],
    });
  });

  it('sends the conversation again with the answer to the run’s URL and headers; the continuation is leg 1', async () => {
    const { server, service, id } = await paused();
    const { leg } = await service.sendToolResults({
      sessionId: id,
      results: [{ tool_use_id: 'call_confirm', content: 'yes' }],
    });
    expect(leg).toBe(1);
    await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');

    const sent = server.requests[1]!;
    expect(sent.url).toBe(path);
    expect(sent.headers['authorization']).toBe('Bearer chat-token');
    expect(sent.headers['content-type']).toBe('application/json');
    const body = JSON.parse(sent.body) as { id: string; messages: Record<string, unknown>[] };
    expect(body.id).toBe('chat-1');
    expect(body.messages).toHaveLength(2);
    expect(body.messages[1]).toMatchObject({ id: 'msg-client-tool', role: 'assistant' });

    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs.map((l) => [l.kind, l.format])).toEqual([
      ['run', 'ai-sdk-ui'],
      ['tool-results', 'ai-sdk-ui'],
    ]);
    expect(detail.pendingTools).toBeNull();
    expect(detail.summary.end?.kind).toBe('done');
    const blocks = await service.getBlocks({ sessionId: id });
    const text = blocks.filter((b) => b.kind === 'text' && b.leg === 1);
    expect(text).toHaveLength(1);
    // The call of leg 0 was answered by the continuation that ran: no finding says otherwise.
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
  });

  it('refuses a path or extra body: the run is continued as its frontend continues it', async () => {
    const { server, service, id } = await paused();
    await expect(
      service.sendToolResults({
        sessionId: id,
        results: [{ tool_use_id: 'call_confirm', content: 'yes' }],
        path: '/agent/tool_results',
      }),
    ).rejects.toThrow(/no path or extra body to set/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('answering the tool calls of a Chat Completions run (the API runs none)', () => {
  const request = {
    model: 'gpt-4o',
    stream: true,
    scenario: 'parallel-tools',
    messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
  };

  it('sends the conversation again with the assistant message and a tool message per call; the answer is leg 1', async () => {
    const { server, service } = await proxiedToDemo();
    const { id } = await service.connect({
      url: `${server.url}/v1/chat/completions`,
      method: 'POST',
      headers: [['Authorization', 'Bearer sk-demo']],
      body: { kind: 'json', text: JSON.stringify(request) },
    });
    await settled(service, id);
    const paused = await service.getSession({ sessionId: id });
    expect(paused.summary.end?.kind).toBe('paused');
    expect(paused.pendingTools).toMatchObject({
      continuedBy: 'OpenAI Chat Completions',
      tools: [
        { toolUseId: 'call_demo_paris', name: 'get_weather' },
        { toolUseId: 'call_demo_tokyo', name: 'get_weather' },
      ],
    });

    await service.sendToolResults({
      sessionId: id,
      results: [
        { tool_use_id: 'call_demo_paris', content: 'sunny, 21 °C' },
        { tool_use_id: 'call_demo_tokyo', content: 'rain, 14 °C' },
      ],
    });
    await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');

    const sent = JSON.parse(server.requests[1]!.body) as { messages: Record<string, unknown>[] };
    expect(server.requests[1]!.url).toBe('/v1/chat/completions');
    expect(server.requests[1]!.headers['authorization']).toBe('Bearer sk-demo');
    expect(sent.messages.map((m) => [m['role'], m['tool_call_id'] ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'call_demo_paris'],
      ['tool', 'call_demo_tokyo'],
    ]);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.summary.end?.kind).toBe('done');
    expect(detail.legs.map((l) => [l.kind, l.format])).toEqual([
      ['run', 'openai-chat'],
      ['tool-results', 'openai-chat'],
    ]);
    const answer = (await service.getBlocks({ sessionId: id })).find((b) => b.kind === 'text' && b.leg === 1);
    expect(answer?.preview).toContain('Tokyo: rain');
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
  });
});

describe('answering the tool calls of an Ollama /api/chat run (Ollama runs none)', () => {
  it('sends the conversation again with the assistant message and a tool message per call; the answer is leg 1', async () => {
    const { server, service } = await proxiedToDemo();
    const { id } = await service.connect({
      url: `${server.url}/ollama/api/chat`,
      method: 'POST',
      headers: [],
      body: {
        kind: 'json',
        text: JSON.stringify({
          model: 'llama3.2',
          scenario: 'tool-call',
          messages: [{ role: 'user', content: 'Paris?' }],
        }),
      },
    });
    await settled(service, id);
    const paused = await service.getSession({ sessionId: id });
    expect(paused.summary.end?.kind).toBe('paused');
    expect(paused.pendingTools).toMatchObject({
      continuedBy: 'Ollama native API',
      tools: [{ name: 'get_weather' }, { name: 'get_local_time' }],
    });
    const [weather, time] = paused.pendingTools!.tools;
    await service.sendToolResults({
      sessionId: id,
      results: [
        { tool_use_id: weather!.toolUseId, content: 'sunny, 21 °C' },
        { tool_use_id: time!.toolUseId, content: '14:05' },
      ],
    });
    await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');

    const sent = JSON.parse(server.requests[1]!.body) as { messages: Record<string, unknown>[] };
    expect(server.requests[1]!.url).toBe('/ollama/api/chat');
    expect(sent.messages.map((m) => [m['role'], m['tool_name'] ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'get_weather'],
      ['tool', 'get_local_time'],
    ]);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.summary.end?.kind).toBe('done');
    expect(detail.legs.map((l) => [l.kind, l.format])).toEqual([
      ['run', 'ollama'],
      ['tool-results', 'ollama'],
    ]);
    const answer = (await service.getBlocks({ sessionId: id })).find((b) => b.kind === 'text' && b.leg === 1);
    expect(answer?.preview).toContain('sunny and 21 °C');
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
  });
});
