import { describe, expect, it } from 'vitest';
import { settled, useDemoProxy, waitFor, type Json } from './service-testing';

/**
 * A run whose dialect continues itself (DialectModule.clientTools, here the AI SDK's): the
 * session service answers its pause with the request the dialect's hook builds (the run's URL
 * and headers, the conversation again with the answers) instead of the upstream agent's
 * `POST /agent/tool_results`, and decodes the continuation as the next leg. The demo agent
 * serves the streams, behind a loopback server that records what the inspector sent.
 */

/** A loopback server passing every request on to the demo agent, and its answer back. */
const proxiedToDemo = useDemoProxy();

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

/** Runs that wait for a call's approval: approved or denied, continued as each API's client does. */
const APPROVAL_APIS = [
  {
    name: 'an AI SDK 5 run (tool-approval-request)',
    path: '/api/chat',
    request: { ...chat, scenario: 'tool-approval' },
    tool: {
      toolUseId: 'call_delete',
      name: 'delete_file',
      input: { path: 'notes.txt' },
      approvalId: 'approval-delete',
    },
    // What the continuation sent for the call: the part as addToolApprovalResponse leaves it.
    sent: (body: Json) => {
      const { state, approval } = ((body['messages'] as Json[])[1]!['parts'] as Json[]).at(-1)!;
      return { state, approval };
    },
    approved: {
      sent: { state: 'approval-responded', approval: { id: 'approval-delete', approved: true } },
      said: 'Done — "notes.txt" is deleted.',
    },
    denied: {
      sent: { state: 'approval-responded', approval: { id: 'approval-delete', approved: false, reason: 'keep it' } },
      said: 'Understood — "notes.txt" stays.',
    },
  },
  {
    name: 'an OpenAI Responses run (mcp_approval_request)',
    path: '/v1/responses',
    request: { model: 'gpt-5', stream: true, scenario: 'mcp-approval', input: 'Delete the stand-up' },
    tool: {
      toolUseId: 'mcpr_demo_delete',
      name: 'delete_event',
      input: { id: 'evt_standup' },
      approvalId: 'mcpr_demo_delete',
    },
    sent: (body: Json) => ({ previous: body['previous_response_id'], input: body['input'] }),
    approved: {
      sent: {
        previous: 'resp_demo_approval',
        input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_demo_delete', approve: true }],
      },
      said: 'The stand-up is deleted.',
    },
    denied: {
      sent: {
        previous: 'resp_demo_approval',
        input: [
          { type: 'mcp_approval_response', approval_request_id: 'mcpr_demo_delete', approve: false, reason: 'keep it' },
        ],
      },
      said: 'Understood — the stand-up stays.',
    },
  },
] as const;

describe.each(APPROVAL_APIS)('answering a call of $name that waits for its approval', (api) => {
  async function paused() {
    const ctx = await proxiedToDemo();
    const summary = await ctx.service.connect({
      url: `${ctx.server.url}${api.path}`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: JSON.stringify(api.request) },
    });
    await settled(ctx.service, summary.id);
    return { ...ctx, id: summary.id };
  }

  it('the prompt names the approval the call waits for', async () => {
    const { service, id } = await paused();
    expect((await service.getSession({ sessionId: id })).pendingTools?.tools).toEqual([api.tool]);
  });

  it.each([
    [true, '', api.approved],
    [false, 'keep it', api.denied],
  ])(
    'approved %s: the approval goes back as the API’s client sends it; the server runs the tool or not, with no finding',
    async (approved, reason, expected) => {
      const { server, service, id } = await paused();
      await service.sendToolResults({
        sessionId: id,
        results: [{ tool_use_id: api.tool.toolUseId, content: reason, approved }],
      });
      await waitFor(async () => {
        const s = (await service.listSessions())[0]!;
        return s.legs === 2 && s.state === 'complete' ? s : undefined;
      }, 'continuation');
      expect(api.sent(JSON.parse(server.requests[1]!.body) as Json)).toEqual(expected.sent);
      const blocks = await service.getBlocks({ sessionId: id });
      expect(blocks.filter((b) => b.kind === 'text' && b.leg === 1).map((b) => b.preview)).toEqual([expected.said]);
      // A result in leg 1 for leg 0's call links to it (the AI SDK's; the Responses API's MCP call is an item of its own).
      for (const result of blocks.filter((b) => b.kind === 'tool_result' && b.leg === 1))
        expect(result.linkedBlock).toBe(blocks.find((b) => b.toolId === api.tool.toolUseId && b.leg === 0)?.id);
      expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
    },
  );

  it('refuses a result for a call that waits for an approval', async () => {
    const { server, service, id } = await paused();
    await expect(
      service.sendToolResults({ sessionId: id, results: [{ tool_use_id: api.tool.toolUseId, content: 'ok' }] }),
    ).rejects.toThrow(`${api.tool.name} (${api.tool.toolUseId}) waits for an approval (approve or deny), not a result`);
    expect(server.requests).toHaveLength(1);
  });
});
