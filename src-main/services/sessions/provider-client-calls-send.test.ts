import { describe, expect, it } from 'vitest';
import { settled, useDemoProxy, waitFor, type Json } from './service-testing';

/**
 * Provider runs the session service continues (DialectModule.clientTools): tool calls the API
 * leaves to its client, answered one result per call as each API's SDK sends them, and a turn
 * Anthropic paused, continued. The demo agent serves the streams, behind a loopback server that
 * records what the inspector sent.
 */

/** A loopback server passing every request on to the demo agent, and its answer back. */
const proxiedToDemo = useDemoProxy();

describe('continuing a turn Anthropic paused (pause_turn)', () => {
  it('waits with no call to answer; continuing sends the assistant message back as it streamed, and the turn goes on', async () => {
    const { server, service } = await proxiedToDemo();
    const request = { model: 'claude-sonnet-4-5', stream: true, scenario: 'server-tools', messages: [] };
    const { id } = await service.connect({
      url: `${server.url}/v1/messages`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: JSON.stringify(request) },
    });
    await settled(service, id);
    const paused = await service.getSession({ sessionId: id });
    expect([paused.summary.end?.kind, paused.pendingTools?.tools]).toEqual(['paused', []]);

    await service.sendToolResults({ sessionId: id, results: [] });
    await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');
    const sent = JSON.parse(server.requests[1]!.body) as { messages: Json[] };
    expect(sent.messages.map((m) => m['role'])).toEqual(['assistant']);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.summary.end?.kind).toBe('done');
    const blocks = await service.getBlocks({ sessionId: id });
    expect(blocks.filter((b) => b.kind === 'text' && b.leg === 1).map((b) => b.preview)).toEqual([
      'Tomorrow: rain, 16 °C.',
    ]);
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
  });
});

/** A conversation's messages after the user's: [role, what names the call answered, content]. */
const sentMessages = (key: string) => (body: Json) =>
  (body['messages'] as Json[]).map((m) => [m['role'], m[key] ?? null, m['role'] === 'tool' ? m['content'] : null]);

/**
 * A Responses conversation sent again (a response not stored): no previous_response_id, its
 * store, then each input item as [type or role, call id (a reasoning item: its id), output
 * (a reasoning item: its encrypted content)].
 */
const sentConversation = (body: Json) => [
  body['previous_response_id'] ?? null,
  body['store'],
  ...(body['input'] as Json[]).map((i) =>
    i['type'] === 'reasoning'
      ? [i['type'], i['id'], i['encrypted_content']]
      : [i['type'] ?? i['role'], i['call_id'] ?? null, i['output'] ?? null],
  ),
];

/**
 * A Responses run with nothing stored to continue from: the conversation is sent again, the
 * reasoning item (no encrypted_content asked for) left out, and no previous_response_id.
 */
const NOT_STORED = {
  name: 'an OpenAI Responses run not stored ("store": false)',
  path: '/v1/responses',
  request: { model: 'gpt-5', stream: true, store: false, scenario: 'reasoning-function', input: 'Weather in Paris?' },
  continuedBy: 'OpenAI Responses API',
  format: 'openai-responses',
  calls: ['get_weather'],
  sent: sentConversation,
  expected: [
    null,
    false,
    ['user', null, null],
    ['function_call', 'call_demo_weather', null],
    ['function_call_output', 'call_demo_weather', 'answer 0'],
  ],
  answer: 'Paris: sunny, 21 °C.',
} as const;

/** Provider APIs that run no tool (or not these): their tool calls wait for the client, answered one result per call. */
const CLIENT_CALL_APIS = [
  {
    name: 'a Chat Completions run',
    path: '/v1/chat/completions',
    request: {
      model: 'gpt-4o',
      stream: true,
      scenario: 'parallel-tools',
      messages: [{ role: 'user', content: 'Weather?' }],
    },
    continuedBy: 'OpenAI Chat Completions',
    format: 'openai-chat',
    calls: ['get_weather', 'get_weather'],
    sent: sentMessages('tool_call_id'),
    expected: [
      ['user', null, null],
      ['assistant', null, null],
      ['tool', 'call_demo_paris', 'answer 0'],
      ['tool', 'call_demo_tokyo', 'answer 1'],
    ],
    answer: 'Tokyo: rain',
  },
  {
    name: 'an Ollama /api/chat run',
    path: '/ollama/api/chat',
    request: { model: 'llama3.2', scenario: 'tool-call', messages: [{ role: 'user', content: 'Paris?' }] },
    continuedBy: 'Ollama native API',
    format: 'ollama',
    calls: ['get_weather', 'get_local_time'],
    sent: sentMessages('tool_name'),
    expected: [
      ['user', null, null],
      ['assistant', null, null],
      ['tool', 'get_weather', 'answer 0'],
      ['tool', 'get_local_time', 'answer 1'],
    ],
    answer: 'sunny and 21 °C',
  },
  {
    name: 'an Anthropic Messages run (a client tool)',
    path: '/v1/messages',
    request: {
      model: 'claude-sonnet-4-5',
      stream: true,
      scenario: 'tool-use',
      messages: [{ role: 'user', content: 'Weather?' }],
    },
    continuedBy: 'Anthropic Messages API',
    format: 'anthropic-messages',
    calls: ['get_weather'],
    sent: (body: Json) =>
      (body['messages'] as Json[]).map(({ role, content }) => [
        role,
        Array.isArray(content)
          ? (content as Json[]).map((b) => [b['type'], b['tool_use_id'] ?? null, b['content'] ?? null])
          : content,
      ]),
    expected: [
      ['user', 'Weather?'],
      [
        'assistant',
        [
          ['text', null, null],
          ['tool_use', null, null],
        ],
      ],
      ['user', [['tool_result', 'toolu_demo_weather', 'answer 0']]],
    ],
    answer: 'San Francisco: fog, 14 °C.',
  },
  {
    name: 'a Gemini run (function calls)',
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    request: { scenario: 'parallel-calls', contents: [{ role: 'user', parts: [{ text: 'Paris?' }] }] },
    continuedBy: 'Gemini streamGenerateContent',
    format: 'gemini',
    calls: ['get_weather', 'get_local_time'],
    sent: (body: Json) =>
      (body['contents'] as Json[]).map(({ role, parts }) => [role, (parts as Json[]).map((p) => Object.keys(p)[0])]),
    expected: [
      ['user', ['text']],
      ['model', ['functionCall', 'functionCall']],
      ['user', ['functionResponse', 'functionResponse']],
    ],
    answer: 'In Paris it is 21 °C and 14:05.',
  },
  {
    name: 'an OpenAI Responses run (a function tool)',
    path: '/v1/responses',
    request: { model: 'gpt-5', stream: true, scenario: 'reasoning-function', input: 'Weather in Paris?' },
    continuedBy: 'OpenAI Responses API',
    format: 'openai-responses',
    calls: ['get_weather'],
    sent: (body: Json) => [
      body['previous_response_id'],
      ...(body['input'] as Json[]).map((i) => [i['type'], i['call_id'], i['output']]),
    ],
    expected: ['resp_demo_fn', ['function_call_output', 'call_demo_weather', 'answer 0']],
    answer: 'Paris: sunny, 21 °C.',
  },
  NOT_STORED,
  {
    // Its reasoning asked for encrypted: the reasoning item goes back with it, so the model keeps it.
    ...NOT_STORED,
    name: 'an OpenAI Responses run not stored, its reasoning encrypted',
    request: { ...NOT_STORED.request, include: ['reasoning.encrypted_content'] },
    expected: [
      null,
      false,
      ['user', null, null],
      ['reasoning', 'rs_demo', 'gAAAAABdemo-encrypted-reasoning-the-api-decrypts-when-it-is-sent-back=='],
      ['function_call', 'call_demo_weather', null],
      ['function_call_output', 'call_demo_weather', 'answer 0'],
    ],
  },
] as const;

describe.each(CLIENT_CALL_APIS)('answering the tool calls of $name', (api) => {
  it('sends the request again with a result per call, as its SDK does; the answer is leg 1', async () => {
    const { server, service } = await proxiedToDemo();
    const { id } = await service.connect({
      url: `${server.url}${api.path}`,
      method: 'POST',
      headers: [['Authorization', 'Bearer sk-demo']],
      body: { kind: 'json', text: JSON.stringify(api.request) },
    });
    await settled(service, id);
    const paused = await service.getSession({ sessionId: id });
    expect(paused.summary.end?.kind).toBe('paused');
    expect(paused.pendingTools?.continuedBy).toBe(api.continuedBy);
    const pending = paused.pendingTools?.tools ?? [];
    expect(pending.map((t) => t.name)).toEqual(api.calls);

    await service.sendToolResults({
      sessionId: id,
      results: pending.map((t, i) => ({ tool_use_id: t.toolUseId, content: `answer ${i}` })),
    });
    await waitFor(async () => {
      const s = (await service.listSessions())[0]!;
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'continuation');

    const sent = server.requests[1]!;
    expect(sent.url).toBe(api.path);
    expect(sent.headers['authorization']).toBe('Bearer sk-demo');
    expect(api.sent(JSON.parse(sent.body) as Json)).toEqual(api.expected);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.summary.end?.kind).toBe('done');
    expect(detail.legs.map((l) => [l.kind, l.format])).toEqual([
      ['run', api.format],
      ['tool-results', api.format],
    ]);
    const answer = (await service.getBlocks({ sessionId: id })).find((b) => b.kind === 'text' && b.leg === 1);
    expect(answer?.preview).toContain(api.answer);
    expect((await service.getDiagnostics({ sessionId: id })).map((d) => d.rule)).toEqual([]);
  });
});
