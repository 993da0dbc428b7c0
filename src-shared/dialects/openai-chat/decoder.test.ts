import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures, readExternalFixture } from '../../../src-main/testing/fixtures';
import {
  decodeEveryChunking,
  decodeProviderEvents,
  readProviderFixture,
  rulesOf,
} from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes, decodeLegs } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/** One data-only event, as the API frames a chunk. */
const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const chunk = (choices: unknown[], fields: Record<string, unknown> = {}): string =>
  data({ id: 'chatcmpl-t', object: 'chat.completion.chunk', model: 'gpt-test', choices, ...fields });

const statusOf = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;
const kindsAndContent = (result: DecodeResult): [string, string, string][] =>
  result.blocks
    .filter((b) => b.kind !== 'message' && b.kind !== 'awaiting_frontend_tools')
    .map((b) => [b.kind, b.agent, b.content]);
const summaries = (result: DecodeResult): Record<string, unknown>[] =>
  result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed as Record<string, unknown>);

/** Every chunking of `bytes` gives what the first one gives. */
function expectChunkingInvariant(bytes: Uint8Array): void {
  const [first, ...rest] = decodeEveryChunking(bytes);
  expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
}

const fixtures = listProviderFixtures().filter((f) => f.startsWith('openai-chat/'));

const EXPECTED: Record<string, { rules: string[]; status: string }> = {
  'openai-chat/text.sse': { rules: [], status: 'done' },
  'openai-chat/reasoning.sse': { rules: [], status: 'done' },
  // Chat Completions runs no tool: a finish on tool_calls waits for the client.
  'openai-chat/parallel-tools.sse': { rules: [], status: 'awaiting tools' },
  'openai-chat/tools-answered.sse': { rules: [], status: 'done' },
  'openai-chat/n-choices.sse': { rules: [], status: 'done' },
  'openai-chat/length.sse': { rules: ['provider.response-incomplete'], status: 'incomplete' },
  'openai-chat/content-filter.sse': { rules: ['provider.response-incomplete'], status: 'incomplete' },
  'openai-chat/openrouter-error.sse': { rules: ['provider.api-error'], status: 'ended by error' },
  'openai-chat/error-midstream.sse': { rules: ['provider.api-error', 'block.unterminated'], status: 'ended by error' },
  'openai-chat/error-event.sse': { rules: ['provider.api-error', 'block.unterminated'], status: 'ended by error' },
  'openai-chat/cut.sse': {
    rules: ['openai-chat.no-finish-reason', 'stream.missing-done', 'block.unterminated'],
    status: 'truncated',
  },
};

describe('OpenAI Chat Completions fixtures (the demo scenarios)', () => {
  it('every scenario has its expectation', () => {
    expect(fixtures).toEqual(Object.keys(EXPECTED).sort());
  });

  test.each(fixtures)('%s: detected, decoded with exactly its findings and end status, at every chunking', (name) => {
    const bytes = readProviderFixture(name);
    expectChunkingInvariant(bytes);
    const result = decodeBytes(bytes);
    expect(result.formats).toEqual(['openai-chat']);
    expect(rulesOf(result)).toEqual(EXPECTED[name]?.rules);
    expect(statusOf(result)).toBe(EXPECTED[name]?.status);
  });

  it('text: one text block and its message with model, usage as input/output tokens, and the stop reason', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/text.sse'));
    expect(kindsAndContent(result)).toEqual([
      ['text', 'chatcmpl-demo-text', 'The capital of France is Paris. It lies on the Seine.'],
    ]);
    expect(summaries(result)).toEqual([
      expect.objectContaining({
        id: 'chatcmpl-demo-text',
        model: 'gpt-4o-2024-08-06',
        status: 'completed',
        stop_reason: 'stop',
        usage: { prompt_tokens: 18, completion_tokens: 12, total_tokens: 30, input_tokens: 18, output_tokens: 12 },
      }),
    ]);
  });

  it('reasoning: reasoning_content is a thinking block before the text', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/reasoning.sse'));
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'The user asks for the capital of France. That is Paris.'],
      ['text', 'Paris.'],
    ]);
    const thinking = result.envelopes.find((e) => e.type === 'thinking' && !e.final);
    expect(thinking?.unified).toMatchObject({ family: 'stream.content_block_delta', channel: 'reasoning' });
  });

  it('parallel tools: two calls with their parsed arguments, each started and streamed on the unified surface', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/parallel-tools.sse'));
    const calls = result.blocks.filter((b) => b.kind === 'tool_call');
    expect(calls.map((b) => [b.toolId, b.name, b.parsed])).toEqual([
      ['call_demo_paris', 'get_weather', { location: 'Paris' }],
      ['call_demo_tokyo', 'get_weather', { location: 'Tokyo' }],
    ]);
    expect(result.envelopes.filter((e) => e.type === 'tool_calls').map((e) => e.unified?.family)).toEqual([
      'stream.tool_call_start',
      'stream.tool_call_input.delta',
      'stream.tool_call_input.delta',
      'stream.tool_call_start',
      'stream.tool_call_input.delta',
      'stream.tool_call_input.delta',
    ]);
    expect(summaries(result)[0]).toMatchObject({ stop_reason: 'tool_calls', status: 'completed' });
  });

  it('n = 2: one message per choice, their interleaved text kept apart, logprobs on the deltas', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/n-choices.sse'));
    expect(kindsAndContent(result)).toEqual([
      ['text', 'chatcmpl-demo-n2', 'Paris is the capital.'],
      ['text', 'chatcmpl-demo-n2#1', 'The capital is Paris.'],
    ]);
    expect(
      summaries(result).map((s) => [s['choice_index'], s['stop_reason'], 'output_tokens_per_second' in s]),
    ).toEqual([
      [0, 'stop', false],
      [1, 'stop', false],
    ]);
    const first = result.envelopes.find((e) => e.type === 'text');
    expect(first?.extras).toMatchObject({ logprobs: { content: [{ token: 'Paris' }] } });
  });

  it('content filter: the filtered results ride on the envelope, and the message is incomplete', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/content-filter.sse'));
    expect(result.diagnostics[0]?.message).toBe(
      'Choice 0 finished with finish_reason "content_filter" in event 5: a content filter cut its output short.',
    );
    expect(summaries(result)[0]).toMatchObject({
      status: 'incomplete',
      stop_reason: 'content_filter',
      incomplete_details: { reason: 'content_filter' },
    });
    // The placeholder chunk (no id, no model) is shown as it came, the prompt's filter results with it.
    expect(result.envelopes[0]).toMatchObject({ type: 'chat.completion.chunk', control: 'provider-event' });
    expect(result.envelopes[0]?.extras).toHaveProperty('prompt_filter_results');
  });

  it('OpenRouter: keep-alive comments raise nothing; reasoning from delta.reasoning; the error member ends the stream', () => {
    const result = decodeBytes(readProviderFixture('openai-chat/openrouter-error.sse'));
    expect(result.frames[0]?.length).toBe(4);
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'Looking up the capital.'],
      ['text', 'The capital is'],
      ['error', '{"code":"server_error","message":"Provider disconnected unexpectedly"}'],
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      'The API sent an error in event 3: server_error: Provider disconnected unexpectedly',
    );
    expect(summaries(result)[0]).toMatchObject({ status: 'failed', stop_reason: 'error' });
  });

  it('OpenRouter: an error chunk with empty choices as the only event is detected, and ends the stream by error', () => {
    const result = decodeBytes(
      encodeUtf8(
        ': OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n' +
          data({ id: 'gen-x', choices: [], error: { code: 429, message: 'Provider returned error' } }),
      ),
    );
    expect(result.formats).toEqual(['openai-chat']);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'The API sent an error in event 0 as the first event, before any chunk (the request was accepted, then failed): 429: Provider returned error',
    ]);
    expect(statusOf(result)).toBe('ended by error');
  });
});

describe('recorded streams from public SDK test suites (resources/fixtures/external/openai-chat)', () => {
  const read = (name: string): Uint8Array => readExternalFixture(`openai-chat/${name}`);

  test.each([
    ['deepseek-reasoning-tool-call.sse', [], 'awaiting tools'],
    ['azure-content-filter.sse', [], 'done'],
    ['anthropic-fallback-tool-call.sse', ['sse.unterminated-last-event'], 'awaiting tools'],
    ['placeholder-first-chunk.sse', [], 'done'],
    ['empty-tool-calls.sse', [], 'done'],
  ])('%s: openai-chat, with exactly its findings and end status, at every chunking', (name, rules, status) => {
    expectChunkingInvariant(read(name));
    const result = decodeBytes(read(name));
    expect(result.formats).toEqual(['openai-chat']);
    expect(rulesOf(result)).toEqual(rules);
    expect(statusOf(result)).toBe(status);
  });

  it('DeepSeek: reasoning_content, then a tool call whose usage arrives on the finish chunk', () => {
    const result = decodeBytes(read('deepseek-reasoning-tool-call.sse'));
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'The user asks about the weather in San Francisco. I should use the weather tool.'],
      ['tool_call', '{"location": "San Francisco"}'],
    ]);
    expect(summaries(result)[0]).toMatchObject({
      model: 'deepseek-v4-flash',
      stop_reason: 'tool_calls',
      usage: { input_tokens: 374, output_tokens: 61, completion_tokens_details: { reasoning_tokens: 17 } },
    });
  });

  it("Azure: the placeholder chunk's empty id and model give way to the completion's", () => {
    const result = decodeBytes(read('azure-content-filter.sse'));
    expect(kindsAndContent(result)).toEqual([
      ['text', 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt', 'Capital of Denmark.'],
    ]);
    expect(summaries(result)[0]).toMatchObject({ model: 'gpt-5-nano-2025-08-07', usage: { output_tokens: 78 } });
  });

  it('a first tool call at index 1 (a proxy in front of Anthropic) is a call like any other', () => {
    const result = decodeBytes(read('anthropic-fallback-tool-call.sse'));
    expect(result.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolId, b.parsed])).toEqual([
      ['toolu_sanitized', { path: 'a.txt' }],
    ]);
  });

  it('content and finish_reason in one chunk: the text closes at that chunk', () => {
    const result = decodeBytes(read('empty-tool-calls.sse'));
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'Think more...'],
      ['text', 'Hello'],
    ]);
  });
});

describe('time to first token and tokens per second', () => {
  it('count from the first chunk to the first content, and over the streaming time', () => {
    const parts = [
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: ' there' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], { usage: { prompt_tokens: 3, completion_tokens: 20, total_tokens: 23 } }),
      data('[DONE]'),
    ];
    const times = [1000, 1250, 1500, 2250, 2260, 2270];
    const result = decodeLegs([parts.map((part, i) => ({ bytes: encodeUtf8(part), receivedAt: times[i] }))]);
    expect(summaries(result)[0]).toMatchObject({
      time_to_first_token_ms: 250,
      duration_ms: 1250,
      output_tokens_per_second: 20,
    });
  });
});

describe('whole messages and servers that leave fields out', () => {
  it('a choice without index is its position; a delta given as message is read the same', () => {
    const result = decodeProviderEvents([
      data({ choices: [{ delta: { role: 'assistant', content: 'A' } }, { delta: { content: 'B' } }] }),
      data({
        choices: [
          { message: { content: 'a' }, finish_reason: 'stop' },
          { delta: {}, finish_reason: 'stop' },
        ],
      }),
      data('[DONE]'),
    ]);
    expect(result.formats).toEqual(['openai-chat']);
    expect(rulesOf(result)).toEqual([]);
    expect(kindsAndContent(result)).toEqual([
      ['text', '', 'Aa'],
      ['text', '#1', 'B'],
    ]);
  });

  it('vLLM (tool_calls: null, stop_reason beside finish_reason) and Ollama (delta.reasoning) as their docs show them', () => {
    const vllm = (delta: Record<string, unknown>, finish: string | null) =>
      data({
        id: 'chatcmpl-v',
        object: 'chat.completion.chunk',
        model: 'Qwen/Qwen2.5-0.5B-Instruct',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, stop_reason: null }],
        usage: null,
      });
    const fromVllm = decodeProviderEvents([
      vllm({ content: '', role: 'assistant', tool_calls: null }, null),
      vllm({ content: 'Lemons' }, null),
      vllm({ content: '' }, 'stop'),
      data('[DONE]'),
    ]);
    expect(rulesOf(fromVllm)).toEqual([]);
    expect(kindsAndContent(fromVllm)).toEqual([['text', 'chatcmpl-v', 'Lemons']]);
    const ollama = (delta: Record<string, unknown>, finish: string | null) =>
      data({
        id: 'chatcmpl-900',
        object: 'chat.completion.chunk',
        model: 'gpt-oss:20b',
        system_fingerprint: 'fp_ollama',
        choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: finish }],
      });
    const fromOllama = decodeProviderEvents([
      ollama({ content: '', reasoning: 'Think.' }, null),
      ollama({ content: 'Done.' }, null),
      ollama({ content: '' }, 'stop'),
      data('[DONE]'),
    ]);
    expect(rulesOf(fromOllama)).toEqual([]);
    expect(kindsAndContent(fromOllama).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'Think.'],
      ['text', 'Done.'],
    ]);
  });

  it("Mistral's content parts: text parts are text, thinking parts reasoning", () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }] } }]),
      chunk([{ index: 0, delta: { content: [{ type: 'text', text: 'Yes.' }] }, finish_reason: 'stop' }]),
      data('[DONE]'),
    ]);
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'Hmm.'],
      ['text', 'Yes.'],
    ]);
  });

  it('a server that sends reasoning_content and reasoning with the same text keeps it once', () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { reasoning_content: 'Think.', reasoning: 'Think.' } }]),
      chunk([{ index: 0, delta: { content: 'Done.' }, finish_reason: 'stop' }]),
      data('[DONE]'),
    ]);
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['thinking', 'Think.'],
      ['text', 'Done.'],
    ]);
  });

  it('a refusal streams as a refusal block; whole calls without index and the legacy function_call are calls', () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { refusal: "I can't help with that." } }]),
      chunk([{ index: 0, delta: { tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] } }]),
      chunk([{ index: 0, delta: { tool_calls: [{ id: 'b', function: { name: 'g', arguments: { x: 1 } } }] } }]),
      chunk([{ index: 0, delta: { function_call: { name: 'legacy', arguments: '{"y":' } } }]),
      chunk([{ index: 0, delta: { function_call: { arguments: '2}' } }, finish_reason: 'function_call' }]),
      data('[DONE]'),
    ]);
    // Every call is awaited by the pause, the legacy one too: none is reported as left without a result.
    expect(rulesOf(result)).toEqual([]);
    expect(kindsAndContent(result).map(([kind, , content]) => [kind, content])).toEqual([
      ['refusal', "I can't help with that."],
      ['tool_call', '{}'],
      ['tool_call', '{"x":1}'],
      ['tool_call', '{"y":2}'],
    ]);
    // The legacy function_call has no id: its block and its answer are known by its own.
    expect(result.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolId)).toEqual([
      'a',
      'b',
      'function_call',
    ]);
    const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools?.map((t) => [t.toolUseId, t.name])).toEqual([
      ['a', 'f'],
      ['b', 'g'],
      ['function_call', 'legacy'],
    ]);
  });

  it('chunks after the finish that carry nothing are in order, and raise nothing', () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }]),
      chunk([{ index: 0, delta: { content: '', role: 'assistant' }, finish_reason: 'stop' }], {
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
      chunk([{ index: 0, delta: {}, finish_reason: null }]),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual([]);
    expect(statusOf(result)).toBe('done');
  });
});
