import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, readProviderFixture, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes, decodeLegs } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';
import { encodeUtf8 } from '../../text/utf8';

const fixtures = listProviderFixtures().filter((f) => f.startsWith('ollama/'));

/** The findings each demo scenario must raise (and no others). */
const EXPECTED_RULES: Record<string, string[]> = {
  'ollama/cut.txt': ['provider.missing-terminal', 'block.unterminated'],
  'ollama/error-midstream.txt': ['provider.api-error', 'block.unterminated'],
  'ollama/length.txt': ['provider.response-incomplete'],
};

function status(result: DecodeResult): string {
  const stream = result.ends.at(-1)?.stream ?? null;
  return endStatusOf({ stream, ...blockEndFacts(result.blocks, result.ends.length - 1) }).kind;
}

const summary = (result: DecodeResult): unknown => result.blocks.find((b) => b.kind === 'message')?.parsed;
const families = (result: DecodeResult) => result.envelopes.map((e) => e.unified?.family ?? `(${e.type})`);

/** Every dialect that claims the line: detection must never be ambiguous. */
const claimants = (data: string): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event: '', data }))).map((m) => m.id);

describe('the demo scenarios', () => {
  it('are all here', () => {
    expect(fixtures).toEqual([
      'ollama/cut.txt',
      'ollama/error-midstream.txt',
      'ollama/generate.txt',
      'ollama/length.txt',
      'ollama/text.txt',
      'ollama/thinking.txt',
      'ollama/tool-call.txt',
      'ollama/tools-answered.txt',
    ]);
  });

  test.each(fixtures)(
    '%s: framed by lines, detected, decoded with exactly its findings, the same at every chunking',
    (name) => {
      const [first, ...rest] = decodeEveryChunking(readProviderFixture(name));
      expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual(
        [],
      );
      const result = decodeBytes(readProviderFixture(name));
      expect(result.formats).toEqual(['ollama']);
      expect(result.detections).toEqual([{ by: 'content' }]);
      expect(rulesOf(result)).toEqual(EXPECTED_RULES[name] ?? []);
      const lines = new TextDecoder().decode(readProviderFixture(name)).split('\n').slice(0, -1);
      expect(result.frames[0]?.map((f) => f.data)).toEqual(lines);
    },
  );

  test.each(fixtures)('%s: every chunk is claimed by ollama alone, and an error line by none', (name) => {
    for (const line of new TextDecoder().decode(readProviderFixture(name)).split('\n').slice(0, -1))
      expect(claimants(line), line.slice(0, 80)).toEqual(line.startsWith('{"error"') ? [] : ['ollama']);
  });

  test.each([
    ['text', 'done'],
    ['thinking', 'done'],
    // Ollama runs no tool: its calls wait for the client.
    ['tool-call', 'paused'],
    ['tools-answered', 'done'],
    ['generate', 'done'],
    ['length', 'incomplete'],
    ['error-midstream', 'error'],
    ['cut', 'truncated'],
  ])('%s ends %s', (scenario, expected) => {
    expect(status(decodeBytes(readProviderFixture(`ollama/${scenario}.txt`)))).toBe(expected);
  });

  it("the done line's count of prompt tokens read from the cache is kept in the usage", () => {
    const done = {
      model: 'llama3.2:3b',
      created_at: '2026-09-25T20:37:48.027236413Z',
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 28,
      prompt_eval_cached_count: 27,
      eval_count: 3,
    };
    const line = (content: string) =>
      JSON.stringify({
        model: 'llama3.2:3b',
        created_at: '2026-09-25T20:37:47.969Z',
        message: { role: 'assistant', content },
        done: false,
      });
    const result = decodeBytes(encodeUtf8(`${line('Hello')}\n${JSON.stringify(done)}\n`));
    expect(summary(result)).toMatchObject({
      usage: { input_tokens: 28, output_tokens: 3, prompt_eval_count: 28, prompt_eval_cached_count: 27, eval_count: 3 },
    });
  });

  it('text: one text block, and the message with its model, stop reason and usage', () => {
    const result = decodeBytes(readProviderFixture('ollama/text.txt'));
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([
      ['text', 'complete', 'The capital of France is Paris.'],
      ['message', 'complete', expect.any(String)],
    ]);
    expect(summary(result)).toEqual({
      model: 'llama3.2',
      status: 'completed',
      stop_reason: 'stop',
      usage: {
        input_tokens: 31,
        output_tokens: 7,
        total_duration: 552_000_000,
        load_duration: 31_000_000,
        prompt_eval_count: 31,
        prompt_eval_duration: 58_000_000,
        eval_count: 7,
        eval_duration: 140_000_000,
      },
    });
    // The first line starts the message; each line's text streams into one block; the done line stops both.
    expect(families(result)).toEqual([
      'stream.message_start',
      'stream.content_block_start',
      ...Array<string>(7).fill('stream.content_block_delta'),
      'stream.content_block_stop',
      'stream.message_stop',
      '(message)',
    ]);
    const stop = result.envelopes.find((e) => e.unified?.family === 'stream.message_stop');
    expect(stop?.unified).toMatchObject({ stop_reason: 'stop', phase: 'completed', usage: { output_tokens: 7 } });
    expect(stop?.extras).not.toHaveProperty('message');
  });

  it('thinking: a thinking block on the reasoning channel, then the answer', () => {
    const result = decodeBytes(readProviderFixture('ollama/thinking.txt'));
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['thinking', 'The user asks for the capital of France. It is Paris.'],
      ['text', 'Paris is the capital of France.'],
      ['message', expect.any(String)],
    ]);
    const deltas = result.envelopes.filter((e) => e.unified?.family === 'stream.content_block_delta');
    expect(new Set(deltas.map((e) => `${e.unified?.channel} ${e.unified?.kind}`))).toEqual(
      new Set(['reasoning reasoning_delta', 'output_text text_delta']),
    );
    expect(summary(result)).toMatchObject({ model: 'qwen3:8b', usage: { input_tokens: 18, output_tokens: 10 } });
  });

  it('tool-call: each call whole (start, input, stop), with made-up ids and its arguments', () => {
    const result = decodeBytes(readProviderFixture('ollama/tool-call.txt'));
    expect(result.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolId, b.name, b.parsed])).toEqual([
      ['call_0', 'get_weather', { city: 'Paris', unit: 'celsius' }],
      ['call_1', 'get_local_time', { city: 'Paris' }],
    ]);
    const calls = result.envelopes.filter(
      (e) => e.unified?.family.startsWith('stream.tool_call') && e.unified.family !== 'stream.tool_call_status',
    );
    expect(calls.map((e) => [e.unified?.family, e.unified?.ids.tool_call_id, e.delta])).toEqual([
      ['stream.tool_call_start', 'call_0', ''],
      ['stream.tool_call_input.delta', 'call_0', '{"city":"Paris","unit":"celsius"}'],
      ['stream.tool_call_stop', 'call_0', '{"city":"Paris","unit":"celsius"}'],
      ['stream.tool_call_start', 'call_1', ''],
      ['stream.tool_call_input.delta', 'call_1', '{"city":"Paris"}'],
      ['stream.tool_call_stop', 'call_1', '{"city":"Paris"}'],
    ]);
    // `function.index` is the call's place in the line, when Ollama writes it (never for 0).
    expect(calls[3]?.unified?.ids.content_index).toBe(1);
    expect(calls[3]?.unified?.tool).toEqual({ kind: 'client', name: 'get_local_time' });
  });

  it('tool-call: the done line leaves the calls to the client: the pause names them, with the assistant message to send back', () => {
    const pause = decodeBytes(readProviderFixture('ollama/tool-call.txt')).blocks.find(
      (b) => b.kind === 'awaiting_frontend_tools',
    );
    expect(pause?.pendingTools?.map((t) => [t.toolUseId, t.name, t.input])).toEqual([
      ['call_0', 'get_weather', { city: 'Paris', unit: 'celsius' }],
      ['call_1', 'get_local_time', { city: 'Paris' }],
    ]);
    // Ollama names no call: the made-up ids are the panel's, not sent back.
    expect((pause?.parsed as { message: unknown }).message).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        { function: { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } } },
        { function: { name: 'get_local_time', arguments: { city: 'Paris' } } },
      ],
    });
  });

  it('generate: `response` lines stream as text; the done line keeps its context', () => {
    const result = decodeBytes(readProviderFixture('ollama/generate.txt'));
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('The capital of France is Paris.');
    const done = result.envelopes.find((e) => e.type === 'done');
    expect(done?.extras).toMatchObject({ done: true, done_reason: 'stop', context: expect.any(Array) as unknown });
    expect(done?.extras).not.toHaveProperty('response');
  });

  it('length: the message is incomplete with its reason, and the stream ends incomplete', () => {
    const result = decodeBytes(readProviderFixture('ollama/length.txt'));
    expect(summary(result)).toMatchObject({ status: 'incomplete', stop_reason: 'length' });
    expect(result.ends[0]?.stream.incomplete?.message).toMatch(/^done_reason "length"/);
  });

  it('error-midstream: an error block, the message failed with it, the stream ended by the error', () => {
    const result = decodeBytes(readProviderFixture('ollama/error-midstream.txt'));
    const error = 'an error was encountered while running the model: unexpected EOF';
    expect(result.blocks.find((b) => b.kind === 'error')?.parsed).toBe(error);
    expect(summary(result)).toMatchObject({ status: 'failed', error });
    expect(result.ends[0]?.stream.error?.message).toBe(error);
  });

  it('cut: what streamed stays open, the message is cut, and the stream says it ended without its done line', () => {
    const result = decodeBytes(readProviderFixture('ollama/cut.txt'));
    expect(result.blocks.map((b) => [b.kind, b.status])).toEqual([
      ['text', 'open'],
      ['message', 'complete'],
    ]);
    expect(summary(result)).toMatchObject({ status: 'cut' });
    expect(result.diagnostics[0]?.message).toBe(
      'The stream ended without a line with "done": true: the response was cut off or the connection dropped.',
    );
  });
});

describe('time to first token and tokens per second', () => {
  it('come from the receive times of the lines, as for every provider', () => {
    const lines = new TextDecoder().decode(readProviderFixture('ollama/text.txt')).split('\n').slice(0, -1);
    // One line every 100 ms from t = 1000: the first holds the first token, the done line comes 700 ms later.
    const result = decodeLegs([
      lines.map((line, i) => ({ bytes: encodeUtf8(`${line}\n`), receivedAt: 1000 + 100 * i })),
    ]);
    expect(summary(result)).toMatchObject({
      time_to_first_token_ms: 0,
      duration_ms: 700,
      // 7 output tokens (eval_count) over the 700 ms from the first token to the done line.
      output_tokens_per_second: 10,
    });
  });
});

describe('logprobs (requested with logprobs: true)', () => {
  const line = (message: Record<string, unknown>, logprobs?: unknown) =>
    JSON.stringify({
      model: 'gemma4:e2b',
      created_at: '2026-05-04T22:48:30Z',
      message: { role: 'assistant', ...message },
      done: false,
      ...(logprobs === undefined ? {} : { logprobs }),
    });
  const hello = [{ token: 'Hello', logprob: -2.5e-7, bytes: [72, 101, 108, 108, 111], top_logprobs: [] }];
  const decode = (...lines: string[]) =>
    decodeBytes(encodeUtf8(`${lines.join('\n')}\n{"model":"gemma4:e2b","done":true,"done_reason":"stop"}\n`));

  it("are kept with the tokens they score: the text's envelope, or the thinking's when the line has no text", () => {
    const result = decode(
      line({ content: '', thinking: 'Hmm' }, hello),
      line({ content: 'Hello' }, hello),
      line({ content: ' there' }),
    );
    const extras = (type: string) =>
      result.envelopes.filter((e) => e.type === type && e.delta !== '').map((e) => e.extras);
    expect(extras('thinking')).toEqual([{ logprobs: hello }]);
    expect(extras('text')).toEqual([{ logprobs: hello }, {}]);
  });
});
