import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { openAiChatContinuation } from './client-calls';

/**
 * Chat Completions runs no tool: a finish on tool_calls is a pause for the client's answers,
 * and the answers continue the run as an OpenAI SDK user sends them: the conversation, the
 * assistant message as it streamed, a `tool` message per call.
 */

const pauseOf = (bytes: Uint8Array) => decodeBytes(bytes).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
const chunk = (choice: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`;
const REQUEST = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Weather?' }] });

describe('the pause', () => {
  it('names each call with its parsed arguments, and carries the assistant message as it streamed', () => {
    const pause = pauseOf(readProviderFixture('openai-chat/parallel-tools.sse'));
    expect(pause?.pendingTools).toEqual([
      { toolUseId: 'call_demo_paris', name: 'get_weather', input: { location: 'Paris' } },
      { toolUseId: 'call_demo_tokyo', name: 'get_weather', input: { location: 'Tokyo' } },
    ]);
    expect((pause?.parsed as { message: unknown }).message).toEqual({
      role: 'assistant',
      content: 'Let me check both cities.',
      tool_calls: [
        {
          id: 'call_demo_paris',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location": "Paris"}' },
        },
        {
          id: 'call_demo_tokyo',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location": "Tokyo"}' },
        },
      ],
    });
  });

  it('a finish on stop after named calls (OpenAI and vLLM with a named tool_choice) waits for them', () => {
    const events = [
      chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"n": 7}' } }] } }),
      chunk({ delta: {}, finish_reason: 'stop' }),
      'data: [DONE]\n\n',
    ];
    expect(pauseOf(encodeUtf8(events.join('')))?.pendingTools).toEqual([
      { toolUseId: 'a', name: 'f', input: { n: 7 } },
    ]);
  });

  it.each([
    ['a finish on stop', [chunk({ delta: { content: 'Hi' }, finish_reason: 'stop' }), 'data: [DONE]\n\n']],
    [
      'a finish on stop after a call without a name (TGI: argument text no fragment with a name began)',
      [
        chunk({ delta: { tool_calls: [{ index: 0, function: { arguments: '<|eot_id|>' } }] } }),
        chunk({ delta: {}, finish_reason: 'stop' }),
        'data: [DONE]\n\n',
      ],
    ],
    [
      'a finish on length after named calls (their arguments may be cut)',
      [
        chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"n"' } }] } }),
        chunk({ delta: {}, finish_reason: 'length' }),
        'data: [DONE]\n\n',
      ],
    ],
    [
      'calls cut before their finish_reason',
      [chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] } })],
    ],
    [
      'an error after the finish',
      [
        chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] } }),
        chunk({ delta: {}, finish_reason: 'tool_calls' }),
        'data: {"error":{"message":"overloaded"}}\n\n',
      ],
    ],
  ])('must not: %s waits for no client', (_name, events) => {
    expect(pauseOf(encodeUtf8(events.join('')))).toBeUndefined();
  });

  it('leaves out content past what it keeps: the message is sent with content null, not cut', () => {
    const long = 'x'.repeat(64 * 1024);
    const events = [
      ...Array.from({ length: 17 }, () => chunk({ delta: { content: long } })),
      chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] } }),
      chunk({ delta: {}, finish_reason: 'tool_calls' }),
      'data: [DONE]\n\n',
    ];
    const pause = pauseOf(encodeUtf8(events.join('')));
    expect((pause?.parsed as { message: { content: unknown } }).message.content).toBeNull();
  });
});

describe('the legacy function_call', () => {
  const legacy = (args: string) => chunk({ delta: { function_call: { name: 'repl', arguments: args } } });
  const decode = (events: string[]) => decodeBytes(encodeUtf8(events.join('')));
  const callIds = (events: string[]) =>
    decode(events)
      .blocks.filter((b) => b.kind === 'tool_call')
      .map((b) => b.toolId);
  const unanswered = (events: string[]) =>
    decode(events).diagnostics.filter((d) => d.rule === 'tool.call-without-result').length;

  it('is known by the id its pause names: its block is awaited, not reported as left without a result', () => {
    const events = [legacy('{}'), chunk({ delta: {}, finish_reason: 'function_call' }), 'data: [DONE]\n\n'];
    expect(callIds(events)).toEqual(['function_call']);
    expect(pauseOf(encodeUtf8(events.join('')))?.pendingTools?.map((t) => t.toolUseId)).toEqual(['function_call']);
    expect(unanswered(events)).toBe(0);
  });

  it('must not: cut before its finish_reason it waits for nothing, and is reported; a tool_calls entry without an id keeps none', () => {
    expect(unanswered([legacy('{}')])).toBe(1);
    const indexless = [
      chunk({ delta: { tool_calls: [{ function: { name: 'f', arguments: '{}' } }] } }),
      chunk({ delta: {}, finish_reason: 'tool_calls' }),
      'data: [DONE]\n\n',
    ];
    expect(callIds(indexless)).toEqual(['']);
  });
});

describe("a call's extra_content (Gemini's OpenAI-compatible API: its thought signature)", () => {
  const signed = { google: { thought_signature: 'Eo4GCosG===' } };
  const stream = (extra: Record<string, unknown>) =>
    encodeUtf8(
      chunk({
        delta: {
          role: 'assistant',
          tool_calls: [
            { ...extra, index: 0, id: 'FL1tqiJ9', type: 'function', function: { name: 'task', arguments: '{}' } },
          ],
        },
      }) +
        chunk({ delta: {}, finish_reason: 'tool_calls' }) +
        'data: [DONE]\n\n',
    );

  it('goes back with the call in the assistant message, as it came', () => {
    const pause = pauseOf(stream({ extra_content: signed }))?.parsed;
    const message = (pause as { message: { tool_calls: Record<string, unknown>[] } }).message;
    expect(message.tool_calls[0]).toEqual({
      id: 'FL1tqiJ9',
      type: 'function',
      function: { name: 'task', arguments: '{}' },
      extra_content: signed,
    });
    const body = openAiChatContinuation.continueBody({
      previousBody: REQUEST,
      calls: [{ toolUseId: 'FL1tqiJ9', name: 'task', input: {} }],
      answers: [{ toolUseId: 'FL1tqiJ9', content: 'ok' }],
      pause,
    });
    const sent = (JSON.parse(body) as { messages: { tool_calls?: unknown[] }[] }).messages[1];
    expect(sent?.tool_calls?.[0]).toMatchObject({ extra_content: signed });
  });

  it('must not: a call without one sends none', () => {
    const message = (pauseOf(stream({}))?.parsed as { message: { tool_calls: Record<string, unknown>[] } }).message;
    expect(message.tool_calls[0]).not.toHaveProperty('extra_content');
  });
});

describe("OpenRouter's reasoning details", () => {
  const SIGNATURE = 'Et0BCkgIChACGAIqQA2s';
  const piece = (detail: Record<string, unknown>) =>
    chunk({
      delta: {
        reasoning: detail['text'] ?? null,
        reasoning_details: [{ format: 'anthropic-claude-v1', index: 0, ...detail }],
      },
    });
  const call = chunk({ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] } });
  const finish = [chunk({ delta: {}, finish_reason: 'tool_calls' }), 'data: [DONE]\n\n'];

  it('go back in the assistant message of the pause, their pieces joined per index, the signature kept', () => {
    const events = [
      piece({ type: 'reasoning.text', text: '', signature: '' }),
      piece({ type: 'reasoning.text', text: 'Need the ' }),
      piece({ type: 'reasoning.text', text: 'weather.' }),
      piece({ type: 'reasoning.text', signature: SIGNATURE }),
      chunk({ delta: { reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAA', index: 1 }] } }),
      call,
      ...finish,
    ];
    const message = (pauseOf(encodeUtf8(events.join('')))?.parsed as { message: Record<string, unknown> }).message;
    expect(message['reasoning_details']).toEqual([
      {
        type: 'reasoning.text',
        text: 'Need the weather.',
        signature: SIGNATURE,
        format: 'anthropic-claude-v1',
        index: 0,
      },
      { type: 'reasoning.encrypted', data: 'gAAAA', index: 1 },
    ]);
    const body = openAiChatContinuation.continueBody({
      previousBody: REQUEST,
      calls: [{ toolUseId: 'a', name: 'f', input: {} }],
      answers: [{ toolUseId: 'a', content: 'ok' }],
      pause: pauseOf(encodeUtf8(events.join('')))?.parsed,
    });
    const sent = (JSON.parse(body) as { messages: Record<string, unknown>[] }).messages[1];
    expect(sent?.['reasoning_details']).toEqual(message['reasoning_details']);
  });

  it('a detail of another type at the same index is a detail of its own: the text, then the encrypted detail that seals it', () => {
    // Recorded: OpenRouter's gemini-3-pro-preview (charmbracelet/fantasy); the client that recorded
    // it sent these two details back, and OpenRouter accepted them.
    const pause = pauseOf(readExternalFixture('openai-chat/fantasy-openrouter-gemini3-reasoning-details.sse'));
    const details = (pause?.parsed as { message: { reasoning_details: Record<string, unknown>[] } }).message
      .reasoning_details;
    expect(details.map((d) => [d['type'], d['index'], Object.keys(d).sort()])).toEqual([
      ['reasoning.text', 0, ['format', 'index', 'text', 'type']],
      ['reasoning.encrypted', 0, ['data', 'format', 'id', 'index', 'type']],
    ]);
    expect(details[0]?.['text']).toMatch(/^\*\*Assessing User Intent\*\*[\s\S]*\*\*Pinpointing the Tool's Use\*\*/);
    expect(details[1]).toMatchObject({ id: 'tool_weather_wJMhKbJOiIeWsXDA84qT' });
  });

  it('must not: a stream without them, or with empty lists only, sends a reasoning_details member', () => {
    for (const events of [
      [call, ...finish],
      [chunk({ delta: { content: '', reasoning_details: [] } }), call, ...finish],
    ]) {
      const message = (pauseOf(encodeUtf8(events.join('')))?.parsed as { message: Record<string, unknown> }).message;
      expect(message).not.toHaveProperty('reasoning_details');
    }
  });
});

describe('the continuation', () => {
  const pause = () => pauseOf(readProviderFixture('openai-chat/parallel-tools.sse'))!;

  it('sends the conversation again with the assistant message and a tool message per answer, in the order of the calls', () => {
    const body = JSON.parse(
      openAiChatContinuation.continueBody({
        previousBody: REQUEST,
        calls: pause().pendingTools ?? [],
        answers: [
          { toolUseId: 'call_demo_tokyo', content: 'rain, 14 °C' },
          { toolUseId: 'call_demo_paris', content: '{"sky":"sunny"}', isError: false },
        ],
        pause: pause().parsed,
      }),
    ) as { model: string; stream: boolean; messages: Record<string, unknown>[] };
    expect(body).toMatchObject({ model: 'gpt-4o', stream: true });
    expect(body.messages.map((m) => [m['role'], m['tool_call_id'] ?? null, m['content']])).toEqual([
      ['user', null, 'Weather?'],
      ['assistant', null, 'Let me check both cities.'],
      ['tool', 'call_demo_paris', '{"sky":"sunny"}'],
      ['tool', 'call_demo_tokyo', 'rain, 14 °C'],
    ]);
  });

  it('refuses a request without a messages array, and a pause without its message, saying why', () => {
    const input = { calls: pause().pendingTools ?? [], answers: [], pause: pause().parsed };
    expect(() => openAiChatContinuation.continueBody({ ...input, previousBody: '{"prompt":"x"}' })).toThrow(
      /no JSON body with a messages array, and this API continues a run by sending the conversation again/,
    );
    expect(() => openAiChatContinuation.continueBody({ ...input, previousBody: REQUEST, pause: {} })).toThrow(
      /does not carry the assistant message/,
    );
  });
});
