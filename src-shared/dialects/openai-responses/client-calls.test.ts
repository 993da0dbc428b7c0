import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { openAiResponsesContinuation } from './client-calls';
import { completed, created, numbered } from './decoder-testing';

/**
 * The Responses API runs its built-in and MCP tools, not function or custom tools: a response
 * completed with their calls is a pause for the client's outputs, continued as the API's guide
 * does, with `previous_response_id` and an output item per call.
 */

const pauseOf = (bytes: Uint8Array) => decodeBytes(bytes).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
const REQUEST = JSON.stringify({ model: 'gpt-5', stream: true, input: 'Weather in Paris?', tools: [] });
const call = (type: string, item: Record<string, unknown>): [string, Record<string, unknown>][] => [
  ['response.output_item.added', { output_index: 0, item: { type, status: 'in_progress', ...item } }],
  ['response.output_item.done', { output_index: 0, item: { type, status: 'completed', ...item } }],
];
const FUNCTION = { id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };

describe('the pause', () => {
  it('names the response and each call: a function with its parsed arguments, a custom tool with its text', () => {
    const pause = pauseOf(readProviderFixture('openai-responses/reasoning-function.sse'));
    expect(pause?.pendingTools).toEqual([
      { toolUseId: 'call_demo_weather', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
    ]);
    expect(pause?.parsed).toMatchObject({ outputs: { call_demo_weather: 'function_call_output' } });
    // An MCP call that needs approval waits for the client too: for an approval, by the request's item id.
    const custom = pauseOf(readProviderFixture('openai-responses/builtin-tools.sse'));
    expect(custom?.pendingTools).toEqual([
      { toolUseId: 'mcpr_demo', name: 'delete_event', input: { id: 'evt_1' }, approvalId: 'mcpr_demo' },
      { toolUseId: 'call_demo_sql', name: 'run_sql', input: { input: 'SELECT 1;' } },
    ]);
    expect(custom?.parsed).toMatchObject({
      outputs: { mcpr_demo: 'mcp_approval_response', call_demo_sql: 'custom_tool_call_output' },
    });
  });

  it.each([
    ['a response cut before its end', numbered([created, ...call('function_call', FUNCTION)])],
    [
      'a response that failed',
      numbered([created, ...call('function_call', FUNCTION), ['response.failed', { response: { id: 'resp_1' } }]]),
    ],
    [
      'a response a later one in the capture followed (a tool loop the client already answered)',
      numbered([
        created,
        ...call('function_call', FUNCTION),
        completed,
        ['response.created', { response: { id: 'resp_2', status: 'in_progress' } }],
        ['response.completed', { response: { id: 'resp_2', status: 'completed' } }],
      ]),
    ],
  ])('must not: %s waits for no client', (_name, events) => {
    expect(pauseOf(encodeUtf8(events.join('')))).toBeUndefined();
  });

  // xAI streams its x_search tool's calls as custom tool calls it runs itself.
  const X_SEARCH = { id: 'ctc_1', call_id: 'xs_call_1', name: 'x_keyword_search', input: '{"query":"from:xai"}' };
  const listing = (tools?: unknown[]) =>
    encodeUtf8(
      numbered([
        ['response.created', { response: { id: 'resp_1', status: 'in_progress', ...(tools ? { tools } : {}) } }],
        ...call('custom_tool_call', X_SEARCH),
        completed,
      ]).join(''),
    );

  it("a custom tool call named after none of the response's custom tools is the API's: a server call and its status, no pause", () => {
    const result = decodeBytes(listing([{ type: 'x_search' }]));
    expect(result.blocks.map((b) => b.kind)).toEqual(['server_tool_call', 'server_tool_result', 'message']);
    expect(result.blocks[0]?.parsed).toMatchObject({ name: 'x_keyword_search', input: { query: 'from:xai' } });
    expect(result.blocks[1]?.content).toBe('{"status":"completed"}');
    expect(result.diagnostics).toEqual([]);
  });

  it.each([
    ['one of its custom tools', [{ type: 'custom', name: 'x_keyword_search' }]],
    [
      'a custom tool of a namespace',
      [{ type: 'namespace', name: 'x', tools: [{ type: 'custom', name: 'x_keyword_search' }] }],
    ],
    ['unknown: tool_search loads tools the list does not show', [{ type: 'tool_search' }]],
    ['unknown: the response lists no tools', undefined],
  ])('a custom tool call the response says is %s waits for the client', (_name, tools) => {
    expect(pauseOf(listing(tools))?.pendingTools).toEqual([
      { toolUseId: 'xs_call_1', name: 'x_keyword_search', input: { input: '{"query":"from:xai"}' } },
    ]);
  });
});

describe('the continuation', () => {
  const events = numbered([created, ...call('function_call', FUNCTION), completed]);
  const pause = () => pauseOf(encodeUtf8(events.join('')))!;

  it('sends the request again after the response it names, its input an output item per answer', () => {
    const body = JSON.parse(
      openAiResponsesContinuation.continueBody({
        previousBody: REQUEST,
        calls: pause().pendingTools ?? [],
        answers: [{ toolUseId: 'call_1', content: 'sunny, 21 °C' }],
        pause: pause().parsed,
      }),
    ) as Record<string, unknown>;
    expect(body).toEqual({
      model: 'gpt-5',
      stream: true,
      tools: [],
      previous_response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'sunny, 21 °C' }],
    });
  });

  it('an approval request is answered with an mcp_approval_response, approving or not, with the reason given', () => {
    const tools = pauseOf(readProviderFixture('openai-responses/builtin-tools.sse'))!;
    const body = JSON.parse(
      openAiResponsesContinuation.continueBody({
        previousBody: REQUEST,
        calls: tools.pendingTools ?? [],
        answers: [
          { toolUseId: 'call_demo_sql', content: '1' },
          { toolUseId: 'mcpr_demo', content: 'not that one', approved: false },
        ],
        pause: tools.parsed,
      }),
    ) as Record<string, unknown>;
    expect(body['input']).toEqual([
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_demo', approve: false, reason: 'not that one' },
      { type: 'custom_tool_call_output', call_id: 'call_demo_sql', output: '1' },
    ]);
  });

  it("refuses a pause without its response, saying why; a stored response's pause keeps none of its output", () => {
    const input = { calls: pause().pendingTools ?? [], answers: [], previousBody: REQUEST };
    expect(() => openAiResponsesContinuation.continueBody({ ...input, pause: {} })).toThrow(
      /does not name the response/,
    );
    expect(pause().parsed).not.toHaveProperty('output');
  });
});

describe('a response the API did not store ("store": false): the conversation sent again', () => {
  const ENCRYPTED = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABenc==' };
  const HIDDEN = { id: 'rs_2', type: 'reasoning', summary: [] };
  const CALL = { type: 'function_call', status: 'completed', ...FUNCTION };
  const notStored = (output?: unknown[]) =>
    pauseOf(
      encodeUtf8(
        numbered([
          created,
          ...call('function_call', FUNCTION),
          ['response.completed', { response: { id: 'resp_1', status: 'completed', store: false, output } }],
        ]).join(''),
      ),
    )!;
  const STATELESS = { model: 'gpt-5', stream: true, store: false, include: ['reasoning.encrypted_content'] };
  const answers = [{ toolUseId: 'call_1', content: 'sunny' }];
  const ANSWER = { type: 'function_call_output', call_id: 'call_1', output: 'sunny' };

  it('its input, its output items as they came (reasoning without encrypted content left out), then the answers; no response named', () => {
    const paused = notStored([ENCRYPTED, HIDDEN, CALL]);
    expect(paused.parsed).toMatchObject({ output: [ENCRYPTED, HIDDEN, CALL] });
    const continueAfter = (previous: Record<string, unknown>) =>
      openAiResponsesContinuation.continueBody({
        previousBody: JSON.stringify(previous),
        calls: paused.pendingTools ?? [],
        answers,
        pause: paused.parsed,
      });
    const body = continueAfter({ ...STATELESS, input: 'Weather in Paris?' });
    expect(JSON.parse(body)).toEqual({
      ...STATELESS,
      input: [{ role: 'user', content: 'Weather in Paris?' }, ENCRYPTED, CALL, ANSWER],
    });
    expect(openAiResponsesContinuation.answersIn?.(body, paused.pendingTools ?? [])).toEqual(answers);
    // A later leg's request holds the conversation so far: the next continuation adds to it.
    const earlier = [
      { role: 'user', content: 'Hi' },
      { type: 'function_call_output', call_id: 'call_0', output: 'x' },
    ];
    expect(JSON.parse(continueAfter({ ...STATELESS, input: earlier }))).toMatchObject({
      input: [...earlier, ENCRYPTED, CALL, ANSWER],
    });
  });

  it('a response.completed with no output (as xAI sends it): the items as their done events gave them', () => {
    const paused = pauseOf(
      encodeUtf8(
        numbered([
          ['response.created', { response: { id: 'resp_1', status: 'in_progress', store: false } }],
          ['response.output_item.added', { output_index: 0, item: { ...ENCRYPTED, encrypted_content: null } }],
          ['response.output_item.done', { output_index: 0, item: ENCRYPTED }],
          ...call('function_call', FUNCTION).map(([type, fields]): [string, Record<string, unknown>] => [
            type,
            { ...fields, output_index: 1 },
          ]),
          ['response.completed', { response: { id: 'resp_1', status: 'completed', store: false, output: [] } }],
        ]).join(''),
      ),
    )!;
    expect(paused.parsed).toMatchObject({ output: [ENCRYPTED, CALL] });
  });

  it("refuses, saying why, when the response's end carried no output items to send back", () => {
    const paused = notStored();
    expect(paused.parsed).not.toHaveProperty('output');
    expect(() =>
      openAiResponsesContinuation.continueBody({
        previousBody: JSON.stringify({ ...STATELESS, input: 'x' }),
        calls: paused.pendingTools ?? [],
        answers,
        pause: paused.parsed,
      }),
    ).toThrow(/"store": false, so the API kept no response to continue from, and the pause carries no output items/);
  });
});

describe('tools the client runs: local shell, shell, apply_patch', () => {
  const SHELL = { id: 'sh_1', call_id: 'call_sh', action: { commands: ['ls -a'], max_output_length: null } };
  const PATCH = { id: 'apc_1', call_id: 'call_patch', operation: { type: 'delete_file', path: 'old.md' } };
  const commands: [string, Record<string, unknown>][] = [
    ['response.shell_call_command.added', { output_index: 0, command_index: 0, command: '' }],
    ['response.shell_call_command.delta', { output_index: 0, command_index: 0, delta: 'ls -a' }],
    ['response.shell_call_command.done', { output_index: 0, command_index: 0, command: 'ls -a' }],
  ];
  const shellCall = (output: [string, Record<string, unknown>][]) =>
    numbered([
      created,
      [
        'response.output_item.added',
        { output_index: 0, item: { type: 'shell_call', status: 'in_progress', ...SHELL } },
      ],
      ...commands,
      ['response.output_item.done', { output_index: 0, item: { type: 'shell_call', status: 'completed', ...SHELL } }],
      ...output,
      completed,
    ]).join('');

  it('a shell call, its commands streamed, waits for a shell_call_output; a patch for an apply_patch_call_output', () => {
    const result = decodeBytes(encodeUtf8(shellCall([])));
    expect(result.diagnostics).toEqual([]);
    const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools).toEqual([{ toolUseId: 'call_sh', name: 'shell', input: SHELL.action }]);
    expect(pause?.parsed).toMatchObject({ outputs: { call_sh: 'shell_call_output' } });
    const patch = pauseOf(encodeUtf8(numbered([created, ...call('apply_patch_call', PATCH), completed]).join('')));
    expect(patch?.parsed).toMatchObject({ outputs: { call_patch: 'apply_patch_call_output' } });
  });

  it('must not: a shell call the API ran in its container, its shell_call_output in the stream, waits for no client', () => {
    const output = { id: 'sho_1', type: 'shell_call_output', call_id: 'call_sh', output: [{ stdout: 'a\n' }] };
    const result = decodeBytes(
      encodeUtf8(
        shellCall([
          ['response.output_item.added', { output_index: 1, item: { ...output, output: [] } }],
          ['response.shell_call_output_content.delta', { output_index: 1, item_id: 'sho_1', delta: { stdout: 'a\n' } }],
          ['response.output_item.done', { output_index: 1, item: output }],
        ]),
      ),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.blocks.find((b) => b.kind === 'awaiting_frontend_tools')).toBeUndefined();
    expect(result.blocks.find((b) => b.kind === 'tool_result')?.content).toBe('[{"stdout":"a\\n"}]');
  });

  it('answers each with its own output item: a shell command result, a patch status, a local shell text; read back the same', () => {
    const calls = [
      { toolUseId: 'call_sh', name: 'shell', input: {} },
      { toolUseId: 'call_patch', name: 'apply_patch', input: {} },
      { toolUseId: 'call_local', name: 'local_shell', input: {} },
    ];
    const answers = [
      { toolUseId: 'call_sh', content: 'ls: denied', isError: true },
      { toolUseId: 'call_patch', content: 'deleted old.md' },
      { toolUseId: 'call_local', content: 'a b' },
    ];
    const outputs = {
      call_sh: 'shell_call_output',
      call_patch: 'apply_patch_call_output',
      call_local: 'local_shell_call_output',
    };
    const body = openAiResponsesContinuation.continueBody({
      previousBody: REQUEST,
      calls,
      answers,
      pause: { response_id: 'resp_1', outputs },
    });
    expect((JSON.parse(body) as { input: unknown }).input).toEqual([
      {
        type: 'shell_call_output',
        call_id: 'call_sh',
        output: [{ stdout: '', stderr: 'ls: denied', outcome: { type: 'exit', exit_code: 1 } }],
      },
      { type: 'apply_patch_call_output', call_id: 'call_patch', status: 'completed', output: 'deleted old.md' },
      { type: 'local_shell_call_output', call_id: 'call_local', output: 'a b' },
    ]);
    expect(openAiResponsesContinuation.answersIn?.(body, calls)).toEqual(answers);
  });
});

describe('a computer call: the client does its actions and answers with a screenshot', () => {
  const CHECK = { id: 'cu_sc_demo', code: 'irrelevant_domain', message: 'The page is not on the domain of the task.' };
  const CLICK = { type: 'click', button: 'left', x: 412, y: 96 };
  const SCREENSHOT = 'data:image/png;base64,iVBORw0KGgo=';
  const SCREENSHOT_HINT = "a screenshot: its URL (https://…), a data:image/… URL or an uploaded file's id (file-…)";

  it('waits for the client, its action and safety checks as the input: no result made up, no server tool', () => {
    const result = decodeBytes(readProviderFixture('openai-responses/computer-use.sse'));
    expect(result.diagnostics).toEqual([]);
    // The call, the response's summary and the pause: no server tool call, no result.
    expect(result.blocks.map((b) => b.kind)).toEqual(['tool_call', 'message', 'awaiting_frontend_tools']);
    const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools).toEqual([
      {
        toolUseId: 'call_demo_computer',
        name: 'computer',
        input: { action: CLICK, pending_safety_checks: [CHECK] },
        // What the answer panel asks for instead of a quick "ok" the API would refuse.
        answerHint: expect.stringMatching(/^a screenshot: its URL/) as unknown,
      },
    ]);
    expect(pause?.parsed).toMatchObject({
      outputs: { call_demo_computer: 'computer_call_output' },
      safety_checks: { call_demo_computer: [CHECK] },
    });
  });

  it('a call of the GA tool says its actions as a list; with no safety check the pause names none', () => {
    const actions = [CLICK, { type: 'type', text: 'Paris' }];
    const item = { id: 'cu_1', call_id: 'call_cu', actions };
    const pause = pauseOf(encodeUtf8(numbered([created, ...call('computer_call', item), completed]).join('')));
    expect(pause?.pendingTools).toEqual([
      { toolUseId: 'call_cu', name: 'computer', input: { actions }, answerHint: SCREENSHOT_HINT },
    ]);
    expect(pause?.parsed).not.toHaveProperty('safety_checks');
  });

  it('answers with a computer_call_output of the screenshot, its safety checks acknowledged; read back the same', () => {
    const calls = [
      { toolUseId: 'call_a', name: 'computer', input: {} },
      { toolUseId: 'call_b', name: 'computer', input: {} },
    ];
    const answers = [
      { toolUseId: 'call_a', content: SCREENSHOT },
      { toolUseId: 'call_b', content: 'file-shot1' },
    ];
    const pause = {
      response_id: 'resp_1',
      outputs: { call_a: 'computer_call_output', call_b: 'computer_call_output' },
      safety_checks: { call_a: [CHECK] },
    };
    const body = openAiResponsesContinuation.continueBody({ previousBody: REQUEST, calls, answers, pause });
    expect((JSON.parse(body) as { input: unknown }).input).toEqual([
      {
        type: 'computer_call_output',
        call_id: 'call_a',
        output: { type: 'computer_screenshot', image_url: SCREENSHOT },
        acknowledged_safety_checks: [CHECK],
      },
      {
        type: 'computer_call_output',
        call_id: 'call_b',
        output: { type: 'computer_screenshot', file_id: 'file-shot1' },
      },
    ]);
    expect(openAiResponsesContinuation.answersIn?.(body, calls)).toEqual(answers);
  });

  it.each([
    ['a text', { content: 'clicked it' }],
    ['an error', { content: SCREENSHOT, isError: true }],
    ['nothing', { content: '  ' }],
  ])('must not: %s is sent as a computer call output (the API takes a screenshot only)', (_name, answer) => {
    const pause = { response_id: 'resp_1', outputs: { call_a: 'computer_call_output' } };
    expect(() =>
      openAiResponsesContinuation.continueBody({
        previousBody: REQUEST,
        calls: [{ toolUseId: 'call_a', name: 'computer', input: {} }],
        answers: [{ toolUseId: 'call_a', ...answer }],
        pause,
      }),
    ).toThrow(/Computer call call_a is answered with a screenshot/);
  });
});
