import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, rulesOf } from '../../../src-main/testing/provider-streams';
import type { DecodeResult } from '../../pipeline/types';

/**
 * Shapes the chunk of the common case does not show: OpenAI's spoken answer (`delta.audio`),
 * and what OpenAI-compatible servers send that the chunk object does not describe (TGI 2.x's
 * `tool_calls` as one call object instead of an array).
 */

const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null): string =>
  data({
    id: '',
    object: 'chat.completion.chunk',
    model: 'tgi',
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
const DONE = data('[DONE]');
const calls = (result: DecodeResult) =>
  result.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.name, b.toolId, b.content]);

describe("TGI's tool_calls as one object", () => {
  /** TGI 2.4.1's fragments: the call object itself, its first with the id and name, the later with `name: null`. */
  const fragment = (id: string, name: string | null, args: string) => ({
    tool_calls: { function: { arguments: args, name }, id, index: 0, type: 'function' },
  });

  it('is read as an array of that one call: the call and its arguments kept, one warning for the stream', () => {
    const result = decodeProviderEvents([
      delta({ role: 'assistant', ...fragment('0', 'get_weather', '') }),
      delta(fragment('', null, '{"location":')),
      delta(fragment('', null, '"Paris"}')),
      delta({}, 'tool_calls'),
      DONE,
    ]);
    expect(rulesOf(result)).toEqual(['openai-chat.tool-calls-not-array']);
    expect(result.diagnostics[0]?.message).toBe(
      'Event 0 has tool_calls for choice 0 that are one call object, not an array (as TGI 2.x sends them); read as an array of that one call. A client that iterates the array gets no call from it. Later ones are not reported again.',
    );
    expect(result.diagnostics[0]?.severity).toBe('warning');
    expect(calls(result)).toEqual([['get_weather', '0', '{"location":"Paris"}']]);
    expect(result.envelopes.filter((e) => e.type === 'undecoded')).toEqual([]);
  });

  it('must not: tool_calls as an array, the same call, raise nothing', () => {
    const result = decodeProviderEvents([
      delta({
        tool_calls: [{ index: 0, id: '0', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"location":"Paris"}' } }] }),
      delta({}, 'tool_calls'),
      DONE,
    ]);
    expect(rulesOf(result)).toEqual([]);
    expect(calls(result)).toEqual([['get_weather', '0', '{"location":"Paris"}']]);
  });
});

describe("a spoken answer's delta.audio", () => {
  const chunk = (d: Record<string, unknown>, finish: string | null = null) =>
    data({
      id: 'chatcmpl-a',
      object: 'chat.completion.chunk',
      model: 'gpt-4o-audio',
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
  const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;
  const audio = (piece: Record<string, unknown>) => chunk({ audio: piece });

  it('streams its transcript as a text block of its own; its id, expiry and size go to the summary, not its base64', () => {
    const result = decodeProviderEvents([
      chunk({ role: 'assistant', content: null, audio: { id: 'audio_1', transcript: '' } }),
      audio({ transcript: 'Hello' }),
      audio({ transcript: ' there!' }),
      audio({ data: 'UklGRiQAAABXQVZF' }),
      audio({ data: 'AAAAAA==', expires_at: 1733003600 }),
      chunk({}, 'stop'),
      DONE,
    ]);
    expect(rulesOf(result)).toEqual([]);
    const blocks = result.blocks.filter((b) => b.kind !== 'message');
    expect(blocks.map((b) => [b.kind, b.name, b.content])).toEqual([['text', 'audio transcript', 'Hello there!']]);
    expect(result.envelopes.filter((e) => e.type === 'text' && !e.final).map((e) => e.unified?.channel)).toEqual([
      'audio_transcript',
      'audio_transcript',
    ]);
    // Each piece decoded on its own: 16 characters are 12 bytes, 6 and their padding 4.
    expect(summaryOf(result)).toMatchObject({ audio: { id: 'audio_1', expires_at: 1733003600, data_bytes: 16 } });
  });

  it('a paused run sends the audio back by its id in the assistant message', () => {
    const result = decodeProviderEvents([
      audio({ id: 'audio_1', transcript: 'Checking.' }),
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      DONE,
    ]);
    const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.parsed as { message: unknown };
    expect(pause.message).toMatchObject({ role: 'assistant', content: null, audio: { id: 'audio_1' } });
  });

  it('must not: written text and its transcript share no block; a choice without audio has no audio in its summary', () => {
    const result = decodeProviderEvents([
      chunk({ content: 'Hi' }),
      audio({ transcript: 'Hi' }),
      chunk({}, 'stop'),
      DONE,
    ]);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => [b.name, b.content])).toEqual([
      [undefined, 'Hi'],
      ['audio transcript', 'Hi'],
    ]);
    const plain = decodeProviderEvents([chunk({ content: 'Hi' }, 'stop'), DONE]);
    expect(summaryOf(plain)).not.toHaveProperty('audio');
  });
});

describe("Gemini's OpenAI-compatible API dropping the model's function call", () => {
  const status = (result: DecodeResult) => result.ends[0]?.stream;

  it('finish_reason function_call_filter: … ends the choice failed, said as an API error', () => {
    const result = decodeProviderEvents([
      delta({ role: 'assistant' }, 'function_call_filter: MALFORMED_FUNCTION_CALL'),
      DONE,
    ]);
    expect(rulesOf(result)).toEqual(['provider.api-error']);
    expect(result.diagnostics[0]?.message).toContain(
      `choice 0 finished with finish_reason "function_call_filter: MALFORMED_FUNCTION_CALL" (the API dropped the model's function call (MALFORMED_FUNCTION_CALL))`,
    );
    expect(status(result)?.error).not.toBeNull();
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ status: 'failed' });
  });

  it('must not: another unknown finish_reason is still the end of the output, reported as unknown', () => {
    const result = decodeProviderEvents([delta({ content: 'Hi' }, 'eos'), DONE]);
    expect(rulesOf(result)).toEqual(['provider.unknown-event']);
    expect(status(result)?.error).toBeNull();
  });
});
