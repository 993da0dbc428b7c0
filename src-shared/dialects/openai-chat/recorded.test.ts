import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeProviderEvents, decodeRecorded, pauseOf, rulesOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';

/**
 * Chat Completions streams of OpenAI-compatible servers recorded by the vercel/ai test suite
 * (resources/fixtures/external/openai-chat, credited in its README; the first captures are
 * checked in decoder.test.ts) and by pydantic-ai's (resources/fixtures/external/pydantic-ai):
 * each one is this dialect, the same at every chunking, ends as its stream says, and makes no
 * finding unless the capture breaks the protocol.
 */
interface Recorded {
  name: string;
  /** The folder of resources/fixtures/external it is in, when not openai-chat. */
  folder?: string;
  status: EndStatusKind;
  rules?: string[];
  /** Every block but the message summaries and the pause: kind and content. */
  blocks: [kind: string, content: string][];
  /** The client calls: name, id, parsed arguments (and, for a paused run, what the pause offers). */
  calls?: [string, string, unknown][];
  /** The message summary. */
  message: Record<string, unknown>;
}

const RECORDED: readonly Recorded[] = [
  {
    // xAI leaves its 290 reasoning tokens out of completion_tokens: the output counts them.
    name: 'xai-reasoning-text',
    status: 'done',
    blocks: [
      ['thinking', 'First, the user said'],
      ['text', 'Hello'],
    ],
    message: {
      model: 'grok-3-mini',
      stop_reason: 'stop',
      usage: { completion_tokens: 1, input_tokens: 12, output_tokens: 291, cost_in_usd_ticks: 1466250 },
    },
  },
  {
    // The call's first fragment carries its whole arguments, index after id and function.
    name: 'xai-reasoning-tool-call',
    status: 'paused',
    blocks: [
      ['thinking', 'First, the user is'],
      ['tool_call', '{"location":"San Francisco"}'],
    ],
    calls: [['weather', 'call_55117580', { location: 'San Francisco' }]],
    message: { stop_reason: 'tool_calls', usage: { input_tokens: 291, output_tokens: 222 } },
  },
  {
    // The AI Gateway's routing metadata rides in the finishing delta (provider_metadata): shown
    // on the chunk, no content; the usage and the finish share that chunk.
    name: 'gateway-provider-metadata',
    status: 'done',
    blocks: [['text', 'OK']],
    message: {
      model: 'spacexai/grok-4.1-fast-non-reasoning',
      stop_reason: 'stop',
      usage: { input_tokens: 675, output_tokens: 1, cost: 0.0000344 },
    },
  },
  {
    // Groq: content null, the call whole in one fragment, the usage beside x_groq on the finish chunk.
    name: 'groq-tool-call',
    status: 'paused',
    blocks: [['tool_call', '{}']],
    calls: [['weather', 'tk85n1k4m', {}]],
    message: {
      model: 'llama-3.3-70b-versatile',
      usage: { input_tokens: 210, output_tokens: 15, queue_time: 0.041520249 },
    },
  },
  {
    // Mistral sends the call whole, without index, in the chunk that finishes the choice.
    name: 'mistral-tool-call',
    status: 'paused',
    blocks: [['tool_call', '{"location": "San Francisco"}']],
    calls: [['weather', 'gSIMJiOkT', { location: 'San Francisco' }]],
    message: { model: 'mistral-small-latest', usage: { input_tokens: 124, output_tokens: 22 } },
  },
  {
    // Content as parts (thinking parts, some `closed`), then a text part, then a string.
    name: 'mistral-thinking-parts',
    status: 'done',
    blocks: [
      [
        'thinking',
        'Okay, the user is asking for the product of 17 and 23. I need to calculate this multiplication. Let me break it down:\n\nFirst, I recall that 17 multiplied by 20 is 340 (since 17 * 20 = 340).\nThen, I need to add 17 multiplied by 3, which is 51 (since 17 * 3 = 51).\nNow, add these two results together: 340 + 51 = 391.\n\nSo, 17 * 23 = 391.',
      ],
      ['text', '391'],
    ],
    message: { stop_reason: 'stop', usage: { input_tokens: 28, output_tokens: 139 } },
  },
  {
    // Perplexity: the usage so far and the sources on every chunk, the last chunk's object
    // `chat.completion.done` (documented); the sources become the text's citations.
    name: 'perplexity-citations',
    status: 'done',
    blocks: [['text', 'The current population of **[2][3]']],
    message: { model: 'sonar', stop_reason: 'stop', usage: { input_tokens: 10, output_tokens: 336 } },
  },
  {
    // Moonshot's usage inside the finishing choice, and no usage chunk after it.
    name: 'moonshot-choice-usage',
    status: 'done',
    blocks: [['text', 'OK.']],
    message: {
      model: 'kimi-k2.5',
      usage: { input_tokens: 12, output_tokens: 5, completion_tokens_details: { reasoning_tokens: 1 } },
    },
  },
  {
    // Two calls begun without index in one chunk, then their arguments in the same order.
    name: 'moonshot-indexless-tool-calls',
    status: 'paused',
    blocks: [
      ['tool_call', '{"location":"San Francisco"}'],
      ['tool_call', '{"zone":"UTC"}'],
    ],
    calls: [
      ['weather', 'weather_0', { location: 'San Francisco' }],
      ['time', 'time_1', { zone: 'UTC' }],
    ],
    message: { stop_reason: 'tool_calls', usage: { input_tokens: 61, output_tokens: 25 } },
  },
  {
    // A true failure: the API's error object after the first text, so the text never ended.
    name: 'moonshot-stream-error',
    status: 'error',
    rules: ['provider.api-error', 'block.unterminated'],
    blocks: [
      ['text', 'Partial'],
      ['error', '{"message":"Stream failed","type":"server_error","code":"stream_failure"}'],
    ],
    message: { model: 'kimi-k3', status: 'failed', error: { code: 'stream_failure' } },
  },
  {
    name: 'openai-text-then-tool-call',
    status: 'paused',
    blocks: [
      ['text', 'PRE_TOOL'],
      ['tool_call', '{}'],
    ],
    calls: [['weather', 'call_NZa7xqfefoaMI2YYHowVXVlU', {}]],
    message: { model: 'gpt-4o-2024-08-06', usage: { input_tokens: 58, output_tokens: 12 } },
  },
  {
    // gpt-3.5-turbo-0613's legacy function_call (codesherpa's sample, README): the call has no
    // id, so its block carries the one its pause names it by, and it is awaited, not missing.
    name: 'codesherpa-legacy-function-call',
    status: 'paused',
    blocks: [['tool_call', '{\n  "code": "print(\\"hi\\")",\n  "language": "python"\n}']],
    calls: [['repl', 'function_call', { code: 'print("hi")', language: 'python' }]],
    message: { model: 'gpt-3.5-turbo-0613', stop_reason: 'function_call' },
  },
  {
    // TGI 2.4.1's last chunk (its integration-test snapshot, README): tool_calls as one object,
    // read as an array of it; alone, that fragment begins no call, and its argument text is
    // TGI's leaked end-of-turn token. finish_reason stop: no pause, so the call has no result.
    name: 'tgi-tool-calls-object-last-chunk',
    status: 'done',
    rules: [
      'openai-chat.tool-calls-not-array',
      'provider.block-not-started',
      'provider.tool-args-invalid',
      'tool.call-without-result',
    ],
    blocks: [['tool_call', '<|eot_id|>']],
    calls: [['', '', undefined]],
    message: { model: 'meta-llama/Llama-3.1-8B-Instruct', status: 'completed', stop_reason: 'stop' },
  },
  // Recorded by pydantic/pydantic-ai's suite (resources/fixtures/external/README.md).
  {
    // OpenRouter: keep-alive comments, reasoning cut by the token limit (its finish twice),
    // then an error member on a chunk of its own, with the usage.
    name: 'openrouter-length-then-error',
    folder: 'pydantic-ai',
    status: 'error',
    rules: ['provider.response-incomplete', 'provider.api-error'],
    blocks: [
      ['thinking', 'We need to respond to a greeting. The user'],
      ['error', '{"code":400,"message":"Token limit reached"}'],
    ],
    message: {
      model: 'minimax/minimax-m2:free',
      status: 'incomplete',
      stop_reason: 'length',
      usage: { input_tokens: 43, output_tokens: 10, completion_tokens_details: { reasoning_tokens: 11 } },
    },
  },
  {
    // OpenAI (gpt-5) with include_usage: the usage chunk, then a chunk of moderation results.
    name: 'openai-moderation',
    folder: 'pydantic-ai',
    status: 'done',
    blocks: [['text', 'Paris.']],
    message: {
      model: 'gpt-5-2025-08-07',
      stop_reason: 'stop',
      usage: { input_tokens: 13, output_tokens: 11, prompt_tokens_details: { cached_tokens: 0 } },
    },
  },
  {
    // Claude through OpenRouter: reasoning with reasoning_details, its signature in a chunk of its own.
    name: 'openrouter-claude-reasoning-signature',
    folder: 'pydantic-ai',
    status: 'done',
    blocks: [
      ['thinking', 'This is a simple arithmetic question. 2+2 equals 4.'],
      ['text', '2 + 2 = 4'],
    ],
    message: {
      model: 'anthropic/claude-sonnet-4.5',
      stop_reason: 'stop',
      usage: {
        input_tokens: 43,
        output_tokens: 36,
        cost: 0.000669,
        completion_tokens_details: { reasoning_tokens: 13 },
      },
    },
  },
  {
    // OpenRouter's web plugin: five url_citation annotations before the text (see below).
    name: 'openrouter-web-search-annotations',
    folder: 'pydantic-ai',
    status: 'done',
    blocks: [['text', 'https://github.com/pydantic/pydantic-ai']],
    message: { model: 'deepseek/deepseek-chat', stop_reason: 'stop', usage: { input_tokens: 1854, output_tokens: 13 } },
  },
  {
    // Groq compound (the suite's reduction): the search it ran, then the answer; usage in x_groq only.
    name: 'groq-compound-executed-tools',
    folder: 'pydantic-ai',
    status: 'done',
    blocks: [
      ['server_tool_call', '{"type":"search","arguments":{"query":"weather in San Francisco"}}'],
      [
        'server_tool_result',
        '{"results":[{"title":"SF Weather","url":"https://www.weatherapi.com/","content":"San Francisco: Sunny, 62°F.","score":0.98}]}',
      ],
      ['text', 'The weather in San Francisco is sunny and 62°F.'],
    ],
    message: { model: 'groq/compound', stop_reason: 'stop', usage: { input_tokens: 100, output_tokens: 20 } },
  },
];

const capture = (name: string, folder = 'openai-chat') => readExternalFixture(`${folder}/${name}.sse`);

/** The blocks that sum a message up and that pause the run, checked apart from the content. */
const NOT_CONTENT = new Set(['message', 'awaiting_frontend_tools']);
const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;

describe('recorded Chat Completions streams of OpenAI-compatible servers', () => {
  test.each(RECORDED)(
    '$name: openai-chat, $status, its findings, blocks, calls and summary, the same at every chunking',
    (recorded) => {
      const bytes = capture(recorded.name, recorded.folder);
      const { result, facts } = decodeRecorded(bytes);
      expect(facts).toEqual({
        formats: ['openai-chat'],
        rules: recorded.rules ?? [],
        status: recorded.status,
        chunkingsThatDiffer: [],
      });
      expect(result.blocks.filter((b) => !NOT_CONTENT.has(b.kind)).map((b) => [b.kind, b.content])).toEqual(
        recorded.blocks,
      );
      const calls = result.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.name, b.toolId, b.parsed]);
      expect(calls).toEqual(recorded.calls ?? []);
      const offered = pauseOf(result)?.pendingTools?.map((t) => [t.name, t.toolUseId, t.input]);
      expect(offered).toEqual(recorded.status === 'paused' ? recorded.calls : undefined);
      expect(summaryOf(result)).toMatchObject(recorded.message);
    },
  );

  it("Perplexity's sources are citations of its text, numbered as the text cites them", () => {
    const bytes = capture('perplexity-citations');
    const first = new TextDecoder().decode(bytes).split('\n')[0] ?? '';
    const urls = (JSON.parse(first.slice('data: '.length)) as { citations: string[] }).citations;
    const text = decodeBytes(bytes).blocks.find((b) => b.kind === 'text');
    expect(text?.citations.map((c) => [c.citationType, c.citedText, c.fields])).toEqual(
      urls.map((url, i) => ['search_result', url, { citation_index: i + 1, url }]),
    );
  });

  it("OpenRouter's url_citation annotations, sent before the text, are citations of it", () => {
    const text = decodeBytes(capture('openrouter-web-search-annotations', 'pydantic-ai')).blocks.find(
      (b) => b.kind === 'text',
    );
    expect(text?.citations.map((c) => [c.citationType, c.citedText, c.fields['url']])).toEqual([
      [
        'url_citation',
        'pydantic/pydantic-ai: How Python does AI: agents, realtime ...',
        'https://github.com/pydantic/pydantic-ai',
      ],
      [
        'url_citation',
        'GitHub - pydantic/pydantic-ai at v1.84.0 · GitHub',
        'https://github.com/pydantic/pydantic-ai/tree/v1.84.0',
      ],
      ['url_citation', 'https://pydantic.dev/pydantic-ai', 'https://pydantic.dev/pydantic-ai'],
      ['url_citation', 'AGENTS.md', 'https://github.com/pydantic/pydantic-ai/blob/main/AGENTS.md'],
      [
        'url_citation',
        'GitHub - pydantic/pydantic-ai at v1.67.0 · GitHub',
        'https://github.com/pydantic/pydantic-ai/tree/v1.67.0',
      ],
    ]);
  });

  it('the text before a call goes back with it in the assistant message', () => {
    const message = (pauseOf(decodeBytes(capture('openai-text-then-tool-call')))?.parsed as { message: unknown })
      .message;
    expect(message).toEqual({
      role: 'assistant',
      content: 'PRE_TOOL',
      tool_calls: [
        { id: 'call_NZa7xqfefoaMI2YYHowVXVlU', type: 'function', function: { name: 'weather', arguments: '{}' } },
      ],
    });
  });
});

/** One data-only event, as the API frames a chunk. */
const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const chunk = (choices: unknown[], fields: Record<string, unknown> = {}): string =>
  data({ id: 'chatcmpl-r', object: 'chat.completion.chunk', model: 'm', choices, ...fields });

describe('what the recorded streams showed the decoder', () => {
  it("Perplexity's last chunk object is known; its concise mode's reasoning chunks are still said", () => {
    const done = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Hi' } }]),
      chunk([{ index: 0, delta: { content: '' }, finish_reason: 'stop' }], { object: 'chat.completion.done' }),
      data('[DONE]'),
    ]);
    expect(rulesOf(done)).toEqual([]);
    const reasoning = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: '', reasoning_steps: [] } }], { object: 'chat.reasoning' }),
      chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }]),
      data('[DONE]'),
    ]);
    expect(rulesOf(reasoning)).toEqual(['provider.unknown-event']);
  });

  it("a choice's own usage (Moonshot) is the completion's usage; a usage chunk after it still counts", () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const inChoice = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Hi' } }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop', usage }]),
      data('[DONE]'),
    ]);
    expect(rulesOf(inChoice)).toEqual([]);
    expect(summaryOf(inChoice)).toMatchObject({ usage: { input_tokens: 3, output_tokens: 2 } });
    const thenChunk = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop', usage }]),
      chunk([], { usage: { ...usage, completion_tokens: 4 } }),
      data('[DONE]'),
    ]);
    expect(summaryOf(thenChunk)).toMatchObject({ usage: { output_tokens: 4 } });
  });

  it("sources: search_results (title, url) over the citations' URLs, the latest chunk's list", () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Paris[1]' } }], { citations: ['https://old.example'] }),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], {
        citations: ['https://a.example'],
        search_results: [{ title: 'A', url: 'https://a.example', date: '2025-01-01' }],
      }),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual([]);
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(text?.citations.map((c) => [c.citedText, c.fields])).toEqual([
      ['A', { citation_index: 1, title: 'A', url: 'https://a.example', date: '2025-01-01' }],
    ]);
  });
});
