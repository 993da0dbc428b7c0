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

  it('refuses a request that kept no response ("store": false) and a pause without its response, saying why', () => {
    const input = { calls: pause().pendingTools ?? [], answers: [], pause: pause().parsed };
    expect(() =>
      openAiResponsesContinuation.continueBody({ ...input, previousBody: '{"store":false,"input":"x"}' }),
    ).toThrow(/"store": false, so the API kept no response to continue from/);
    expect(() => openAiResponsesContinuation.continueBody({ ...input, previousBody: REQUEST, pause: {} })).toThrow(
      /does not name the response/,
    );
  });
});
