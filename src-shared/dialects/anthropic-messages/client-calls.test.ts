import { describe, expect, it } from 'vitest';
import { readProviderFixture, rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { anthropicContinuation } from './client-calls';

/**
 * The Messages API runs its server tools, not the client's: a message stopped on `tool_use` is
 * a pause for the client's results, continued as the tool-use guide does: the conversation,
 * the assistant message with every block as it streamed, a user message of `tool_result`s.
 */

const pauseOf = (bytes: Uint8Array) => decodeBytes(bytes).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
const sse = (type: string, fields: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const delta = (index: number, d: Record<string, unknown>) => sse('content_block_delta', { index, delta: d });
const REQUEST = JSON.stringify({
  model: 'claude-sonnet-4-5',
  stream: true,
  messages: [{ role: 'user', content: 'Hi' }],
});

/** A message with thinking (signed), cited text and a client tool call, stopped on tool_use. */
function toolUse(text = 'Checking.', stop = 'tool_use'): string[] {
  return [
    sse('message_start', { message: { id: 'msg_1', model: 'claude-sonnet-4-5', content: [], usage: {} } }),
    sse('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
    delta(0, { type: 'thinking_delta', thinking: 'Weather: ' }),
    delta(0, { type: 'thinking_delta', thinking: 'use the tool.' }),
    delta(0, { type: 'signature_delta', signature: 'sig-abc' }),
    sse('content_block_stop', { index: 0 }),
    sse('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    delta(1, { type: 'text_delta', text }),
    delta(1, { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } }),
    sse('content_block_stop', { index: 1 }),
    sse('content_block_start', {
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
    }),
    delta(2, { type: 'input_json_delta', partial_json: '{"city": ' }),
    delta(2, { type: 'input_json_delta', partial_json: '"Paris"}' }),
    sse('content_block_stop', { index: 2 }),
    sse('message_delta', { delta: { stop_reason: stop }, usage: { output_tokens: 9 } }),
    sse('message_stop'),
  ];
}

describe('the pause', () => {
  it('names each client call, and carries every block as it streamed: thinking with its signature, text with its citation', () => {
    const pause = pauseOf(encodeUtf8(toolUse().join('')));
    expect(pause?.pendingTools).toEqual([{ toolUseId: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }]);
    expect((pause?.parsed as { message: unknown }).message).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Weather: use the tool.', signature: 'sig-abc' },
        { type: 'text', text: 'Checking.', citations: [{ type: 'char_location', cited_text: 'x' }] },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
  });

  it('the demo fixture waits for its tool; server tools that stop on pause_turn wait for the turn to be continued', () => {
    expect(pauseOf(readProviderFixture('anthropic-messages/tool-use.sse'))?.pendingTools).toHaveLength(1);
    const paused = pauseOf(readProviderFixture('anthropic-messages/server-tools.sse'));
    expect(paused?.pendingTools).toEqual([]);
    expect(paused?.parsed).toMatchObject({ pause_turn: true, message: { role: 'assistant' } });
  });

  it('must not: server tools that end their turn wait for nothing', () => {
    const ended = readProviderFixture('anthropic-messages/server-tools.sse');
    const text = new TextDecoder().decode(ended).replace('"stop_reason":"pause_turn"', '"stop_reason":"end_turn"');
    expect(pauseOf(encodeUtf8(text))).toBeUndefined();
  });

  it('a paused turn continues with the assistant message as it streamed, and no user message after it', () => {
    const paused = pauseOf(readProviderFixture('anthropic-messages/server-tools.sse'))!;
    const request = { model: 'claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'Weather?' }] };
    const body = JSON.parse(
      anthropicContinuation.continueBody({
        previousBody: JSON.stringify(request),
        calls: [],
        answers: [],
        pause: paused.parsed,
      }),
    ) as { messages: { role: string; content: { type: string }[] }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // Every block as it streamed, server tool calls and their results with it.
    expect(body.messages[1]?.content).toHaveLength(18);
    expect(body.messages[1]?.content[0]?.type).toBe('redacted_thinking');
    expect(body.messages[1]?.content.at(-1)).toEqual({ type: 'text', text: 'It is sunny in Paris, 21 °C.' });
  });

  it('blocks kept whole go back as they came, a compaction with the summary its deltas streamed and their latest encrypted_content', () => {
    const fallback = { type: 'fallback', from: { model: 'claude-a' }, to: { model: 'claude-b' } };
    const kept = [
      sse('content_block_start', { index: 0, content_block: { type: 'compaction', content: null } }),
      delta(0, { type: 'compaction_delta', content: 'Summary ', encrypted_content: 'old' }),
      delta(0, { type: 'compaction_delta', content: 'complete', encrypted_content: 'opaque' }),
      sse('content_block_stop', { index: 0 }),
      sse('content_block_start', { index: 1, content_block: fallback }),
      sse('content_block_stop', { index: 1 }),
    ];
    const [start, ...rest] = toolUse();
    // The tool_use block at index 2 and the message's end, after them.
    const bytes = encodeUtf8([start, ...kept, ...rest.slice(9)].join(''));
    const compaction = { type: 'compaction', content: 'Summary complete', encrypted_content: 'opaque' };
    const result = decodeBytes(bytes);
    // Both are block types the API sends: shown, never reported unknown.
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks.slice(0, 2).map((b) => [b.kind, JSON.parse(b.content) as unknown])).toEqual([
      ['compaction', compaction],
      ['fallback', fallback],
    ]);
    const pause = pauseOf(bytes);
    expect((pause?.parsed as { message: { content: unknown[] } }).message.content.slice(0, 2)).toEqual([
      compaction,
      fallback,
    ]);
  });

  it("takes a block index of any size (the server's number) without walking up to it", () => {
    const events = toolUse().map((event) => event.replaceAll('"index":2', '"index":2000000000'));
    const pause = pauseOf(encodeUtf8(events.join('')));
    expect((pause?.parsed as { message: { content: unknown[] } }).message.content).toHaveLength(3);
  });

  it.each([
    ['a message stopped on end_turn', toolUse('Done.', 'end_turn')],
    ['a message cut before message_stop', toolUse().slice(0, -2)],
    ['a message a later one in the capture followed', [...toolUse(), ...toolUse('Done.', 'end_turn')]],
  ])('must not: %s waits for no client', (_name, events) => {
    expect(pauseOf(encodeUtf8(events.join('')))).toBeUndefined();
  });
});

describe('the continuation', () => {
  const pause = () => pauseOf(encodeUtf8(toolUse().join('')))!;

  it('sends the conversation again with the assistant message and a user message of tool results, an error marked so', () => {
    const body = JSON.parse(
      anthropicContinuation.continueBody({
        previousBody: REQUEST,
        calls: pause().pendingTools ?? [],
        answers: [{ toolUseId: 'toolu_1', content: 'no such city', isError: true }],
        pause: pause().parsed,
      }),
    ) as { messages: { role: string; content: unknown }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'no such city', is_error: true },
    ]);
  });

  it('keeps the calls but not a message past 1 MiB of content, and then says it cannot continue', () => {
    const long = toolUse('x'.repeat(1024 * 1024 + 1));
    const big = pauseOf(encodeUtf8(long.join('')))!;
    expect(big.pendingTools?.map((t) => t.toolUseId)).toEqual(['toolu_1']);
    expect((big.parsed as { message: unknown }).message).toBeNull();
    expect(() =>
      anthropicContinuation.continueBody({
        previousBody: REQUEST,
        calls: big.pendingTools ?? [],
        answers: [],
        pause: big.parsed,
      }),
    ).toThrow(/more than 1 MiB of content, more than the inspector keeps/);
  });
});
