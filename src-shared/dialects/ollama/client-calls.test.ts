import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { ollamaContinuation } from './client-calls';

/**
 * Ollama runs no tool: a response that ends well after tool calls is a pause for the client's
 * answers, continued as Ollama's clients continue it: the conversation, the assistant message
 * as it streamed, a `tool` message per call naming its tool.
 */

const pauseOf = (bytes: Uint8Array) => decodeBytes(bytes).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
const line = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ model: 'llama3.2', created_at: '2025-01-01T12:00:00.000000Z', ...fields })}\n`;
const CALL = line({
  message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] },
  done: false,
});
const REQUEST = JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'Weather?' }] });

describe('the pause', () => {
  it('carries the text said before the calls, and a call id the line sent', () => {
    const events = [
      line({ message: { role: 'assistant', content: 'Checking.' }, done: false }),
      line({
        message: { role: 'assistant', content: '', tool_calls: [{ id: 'c9', function: { name: 'f', arguments: {} } }] },
        done: false,
      }),
      line({ message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' }),
    ];
    const pause = pauseOf(encodeUtf8(events.join('')));
    expect(pause?.pendingTools?.map((t) => t.toolUseId)).toEqual(['c9']);
    expect((pause?.parsed as { message: unknown }).message).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'c9', function: { name: 'f', arguments: {} } }],
    });
  });

  it.each([
    ['a response cut by its token limit', [CALL, line({ done: true, done_reason: 'length', message: {} })]],
    ['an error after the calls', [CALL, '{"error":"model crashed"}\n']],
    ['calls with no done line', [CALL]],
    [
      'a response a later one in the capture followed (a tool loop the client already answered)',
      [
        CALL,
        line({ message: {}, done: true, done_reason: 'stop' }),
        line({ message: { role: 'assistant', content: 'Done.' }, done: false }),
        line({ message: {}, done: true, done_reason: 'stop' }),
      ],
    ],
  ])('must not: %s waits for no client', (_name, events) => {
    expect(pauseOf(encodeUtf8(events.join('')))).toBeUndefined();
  });
});

describe('the continuation', () => {
  const pause = () => pauseOf(readProviderFixture('ollama/tool-call.txt'))!;

  it('sends the conversation again with the assistant message and a tool message per answer, naming its tool', () => {
    const body = JSON.parse(
      ollamaContinuation.continueBody({
        previousBody: REQUEST,
        calls: pause().pendingTools ?? [],
        answers: [
          { toolUseId: 'call_1', content: '14:05' },
          { toolUseId: 'call_0', content: 'sunny, 21 °C' },
        ],
        pause: pause().parsed,
      }),
    ) as { model: string; messages: Record<string, unknown>[] };
    expect(body.model).toBe('llama3.2');
    expect(body.messages.map((m) => [m['role'], m['tool_name'] ?? null, m['content']])).toEqual([
      ['user', null, 'Weather?'],
      ['assistant', null, ''],
      ['tool', 'get_weather', 'sunny, 21 °C'],
      ['tool', 'get_local_time', '14:05'],
    ]);
  });

  it('refuses a request without messages (an /api/generate one) and a pause without its message, saying why', () => {
    const input = { calls: pause().pendingTools ?? [], answers: [], pause: pause().parsed };
    expect(() => ollamaContinuation.continueBody({ ...input, previousBody: '{"prompt":"x"}' })).toThrow(
      /no JSON body with a messages array \(an \/api\/chat request\)/,
    );
    expect(() => ollamaContinuation.continueBody({ ...input, previousBody: REQUEST, pause: {} })).toThrow(
      /does not carry the assistant message/,
    );
  });
});
