import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded, pauseOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/**
 * Anthropic Messages streams recorded from the API by the vercel/ai test suite
 * (resources/fixtures/external/anthropic, credited in its README): each one is this dialect, the
 * same at every chunking, ends as its stream says, and makes no finding unless the capture
 * breaks the protocol. A block's expected content is its text, or the number of the block whose
 * streamed text the capture's own events give (read with JSON.parse, which the decoder's
 * compact reader of text deltas skips).
 */
interface Recorded {
  name: string;
  status: EndStatusKind;
  rules?: string[];
  blocks: [kind: string, content: unknown][];
  /** The tool calls, client and server: name, id, parsed input. */
  calls?: [string, string, unknown][];
  /** Every message's summary, in order. */
  messages: Record<string, unknown>[];
}

const RECORDED: readonly Recorded[] = [
  {
    name: 'anthropic-json-tool',
    status: 'paused',
    blocks: [['tool_call', '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}']],
    calls: [
      [
        'json',
        'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
      ],
    ],
    messages: [{ model: 'claude-haiku-4-5-20251001', stop_reason: 'tool_use', usage: { output_tokens: 47 } }],
  },
  {
    name: 'anthropic-mcp',
    status: 'done',
    blocks: [
      ['server_tool_call', '{"message": "hello world"}'],
      ['server_tool_result', '[{"type":"text","text":"Tool echo: hello world"}]'],
      [
        'text',
        'The echo tool responded back with: **hello world**\n\nIt simply echoed back the exact message that was sent to it.',
      ],
    ],
    calls: [['echo', 'mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT', { message: 'hello world' }]],
    messages: [{ stop_reason: 'end_turn', usage: { input_tokens: 1250, output_tokens: 83 } }],
  },
  {
    name: 'anthropic-clear-thinking',
    status: 'done',
    blocks: [
      ['thinking', 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185'],
      ['text', '925 ÷ 5 = 185'],
    ],
    messages: [{ model: 'claude-sonnet-4-5-20250929', stop_reason: 'end_turn', usage: { output_tokens: 53 } }],
  },
  {
    // Spaces inside the events' closing braces, as the suite recorded them.
    name: 'anthropic-claude-sonnet-5-reasoning-summarized',
    status: 'done',
    blocks: [
      ['thinking', 0],
      ['text', 1],
    ],
    messages: [
      { model: 'claude-sonnet-5', usage: { output_tokens: 373, output_tokens_details: { thinking_tokens: 62 } } },
    ],
  },
  {
    name: 'anthropic-issue-10819-web-fetch-error',
    status: 'paused',
    blocks: [
      ['text', "I'll follow these steps in order.\n\nStep 1: Calling web_fetch on https://httpbin.org/status/500"],
      ['server_tool_call', '{"url": "https://httpbin.org/status/500"}'],
      ['server_tool_result', '{"type":"web_fetch_tool_result_error","error_code":"url_not_accessible"}'],
      [
        'text',
        'Step 2: web_fetch has returned (with an error, but it has completed).\n\nStep 3: Now calling display_products',
      ],
      ['tool_call', '{}'],
    ],
    calls: [
      ['web_fetch', 'srvtoolu_01J1EKYpi3LLtWHmtZnY1gto', { url: 'https://httpbin.org/status/500' }],
      ['display_products', 'toolu_01FUuDcCDweLziH8QvQFQLtV', {}],
    ],
    messages: [{ stop_reason: 'tool_use', usage: { input_tokens: 2509, server_tool_use: { web_fetch_requests: 1 } } }],
  },
  {
    // A tool loop's two responses: the second says the capture holds several messages (info),
    // and the client call the first made got its result in a request, which no capture holds (info).
    name: 'anthropic-tool-search-regex',
    status: 'done',
    rules: ['provider.next-message', 'tool.call-without-result'],
    blocks: [
      ['server_tool_call', '{"pattern": "weather|SF|San Francisco|forecast|temperature|climate", "limit": 10}'],
      [
        'server_tool_result',
        '{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"get_temp_data"}]}',
      ],
      ['text', 'Great! I found a weather tool. Let me get the current weather data for San Francisco.'],
      ['tool_call', '{"location": "San Francisco, CA"}'],
      ['text', expect.stringMatching(/^Here's the current weather data for San Francisco:\n\n.*moderate humidity!$/s)],
    ],
    calls: [
      [
        'tool_search_tool_regex',
        'srvtoolu_01TFsKhwiJYqVMitK2XGtH87',
        { pattern: 'weather|SF|San Francisco|forecast|temperature|climate', limit: 10 },
      ],
      ['get_temp_data', 'toolu_01UmPwkecewaEpMupy2ywk8b', { location: 'San Francisco, CA' }],
    ],
    messages: [
      { id: 'msg_01A4vjL51mNRof8JMvA9CFph', stop_reason: 'tool_use', usage: { output_tokens: 163 } },
      { id: 'msg_01L42mFXxzijtGwwfiLdKoUn', stop_reason: 'end_turn', usage: { output_tokens: 67 } },
    ],
  },
  {
    // Programmatic tool calling: code execution calls web_fetch, whose input comes whole in its start.
    name: 'anthropic-web-fetch-tool-20260209',
    status: 'done',
    blocks: [
      ['server_tool_call', expect.any(String)],
      ['server_tool_call', '{"url":"https://example.com"}'],
      ['server_tool_result', expect.any(String)],
      ['server_tool_result', expect.any(String)],
      ['text', 4],
    ],
    calls: [
      [
        'code_execution',
        'srvtoolu_01LKcA5qc1HwvLQSe3cLKmcK',
        {
          code: '\nimport json\nresult = await web_fetch({"url": "https://example.com"})\nif isinstance(result, list):\n    print(result[0]["content"][:500])\nelse:\n    print(result)\n',
        },
      ],
      ['web_fetch', 'srvtoolu_01SyXFZ4vqqE144ySoN6b5UG', { url: 'https://example.com' }],
    ],
    messages: [
      { model: 'claude-sonnet-4-6', stop_reason: 'end_turn', usage: { input_tokens: 7172, output_tokens: 144 } },
    ],
  },
  {
    // The suite's scrubbed copy of a refusal (its model and id renamed): no content, the stream
    // ends incomplete, as the documented refusal stop reason says.
    name: 'anthropic-refusal',
    status: 'incomplete',
    rules: ['provider.response-incomplete'],
    blocks: [],
    messages: [{ status: 'incomplete', stop_reason: 'refusal', incomplete_details: { reason: 'refusal' } }],
  },
  {
    name: 'anthropic-fallback',
    status: 'done',
    blocks: [
      ['fallback', '{"type":"fallback","from":{"model":"claude-fable-5"},"to":{"model":"claude-opus-4-8"}}'],
      ['text', 'The printing press was invented by Johannes Gutenberg around 1440.'],
    ],
    // The message is answered by the model the fallback went to, not message_start's.
    messages: [{ model: 'claude-opus-4-8', stop_reason: 'end_turn', usage: { input_tokens: 412, output_tokens: 264 } }],
  },
  {
    // message_delta's usage is the message's final count: its input_tokens replace message_start's 43.
    name: 'anthropic-message-delta-input-tokens',
    status: 'done',
    blocks: [['text', 'pong']],
    messages: [{ model: 'claude-opus-4-5-20251101', usage: { input_tokens: 61, output_tokens: 2 } }],
  },
  {
    // A second message_start for the open message (what vercel/ai issue 18331 saw): a protocol
    // violation, reported; decoded as one message, the repeat's usage ignored.
    name: 'issue-18331-duplicate-message-start',
    status: 'done',
    rules: ['provider.block-started-twice'],
    blocks: [['text', 'ok']],
    messages: [{ id: 'msg_duplicate', usage: { input_tokens: 10, output_tokens: 2 } }],
  },
  {
    // Web search: the server tool's call and its results, then the answer in 19 text blocks,
    // those that cite opening with `citations: []` and their citations_delta before their text.
    name: 'anthropic-web-search-tool',
    status: 'done',
    blocks: [
      ['server_tool_call', '{"query": "tech news today September 26 2025"}'],
      ['server_tool_result', expect.any(String)],
      ...Array.from({ length: 19 }, (_, i): [string, number] => ['text', i + 2]),
    ],
    calls: [['web_search', 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k', { query: 'tech news today September 26 2025' }]],
    messages: [
      {
        model: 'claude-sonnet-4-20250514',
        stop_reason: 'end_turn',
        usage: { input_tokens: 15665, output_tokens: 795, server_tool_use: { web_search_requests: 1 } },
      },
    ],
  },
  {
    name: 'anthropic-compaction',
    status: 'done',
    blocks: [
      ['compaction', expect.stringMatching(/^{"type":"compaction","content":"## Summary of Conversation\\n/)],
      ['text', 1],
    ],
    messages: [
      { model: 'claude-opus-4-6', stop_reason: 'end_turn', usage: { input_tokens: 612, output_tokens: 2819 } },
    ],
  },
  // pydantic-ai's recordings (resources/fixtures/external/pydantic-ai), with the API's own `event:` lines.
  {
    // Two redacted_thinking blocks, each kept whole as its start gave it, then the answer.
    name: 'pydantic-ai/anthropic-redacted-thinking',
    status: 'done',
    blocks: [
      ['redacted_thinking', 0],
      ['redacted_thinking', 1],
      ['text', 2],
    ],
    messages: [{ model: 'claude-sonnet-4-5-20250929', stop_reason: 'end_turn', usage: { output_tokens: 189 } }],
  },
  {
    // Thinking, then the bash code execution server tool: its input streamed, its result whole in its start.
    name: 'pydantic-ai/anthropic-bash-code-execution',
    status: 'done',
    blocks: [
      ['thinking', 'Let me calculate this mathematical expression.'],
      ['text', "I'll calculate that expression for you right away!"],
      ['server_tool_call', '{"command": "echo \\"65465-6544 * 65464-6+1.02255\\" | bc -l"}'],
      ['server_tool_result', expect.stringContaining('"stdout":"-428330955.97745\\n"')],
      ['text', 4],
    ],
    calls: [
      [
        'bash_code_execution',
        'srvtoolu_01MwXaweAHve88x6s3Fc8x6Q',
        { command: 'echo "65465-6544 * 65464-6+1.02255" | bc -l' },
      ],
    ],
    messages: [
      { model: 'claude-sonnet-4-6', stop_reason: 'end_turn', usage: { input_tokens: 4714, output_tokens: 304 } },
    ],
  },
  {
    // The advisor server tool (another model consulted): a thinking block with its signature and
    // no text, the call with no input (one empty input_json_delta), its advisor_tool_result.
    name: 'pydantic-ai/anthropic-advisor-tool',
    status: 'done',
    blocks: [
      ['thinking', ''],
      ['text', 1],
      ['server_tool_call', '{}'],
      ['server_tool_result', expect.stringContaining('"text":"4.\\n\\nShip it — this needs no further calls."')],
      ['text', 'The answer is **4**.'],
    ],
    calls: [['advisor', 'srvtoolu_01DgsKYsJWQfJxubLmaKLEj6', {}]],
    messages: [
      { model: 'claude-sonnet-5', stop_reason: 'end_turn', usage: { input_tokens: 2411, output_tokens: 145 } },
    ],
  },
];

/** A capture by its name in anthropic/, or by its folder and name (as recorded, `.sse`) for another suite's. */
const capture = (name: string) =>
  readExternalFixture(name.includes('/') ? `${name}.sse` : `anthropic/${name}.data-only.sse`);

/** An event of a capture, as far as these tests read it. */
interface CaptureEvent {
  type: string;
  index?: number;
  delta?: Record<string, unknown>;
  content_block?: Record<string, unknown>;
}

/** The capture's events, each parsed from its `data:` line. */
function eventsOf(bytes: Uint8Array): CaptureEvent[] {
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as CaptureEvent);
}

/** The text, thinking or compaction summary the deltas stream into block `index` (redacted: its start). */
function streamedInto(bytes: Uint8Array, index: number): string {
  const start = eventsOf(bytes).find((e) => e.type === 'content_block_start' && e.index === index)?.content_block;
  if (start?.['type'] === 'redacted_thinking') return JSON.stringify(start);
  return eventsOf(bytes)
    .filter((e) => e.type === 'content_block_delta' && e.index === index)
    .map(({ delta = {} }) => delta['text'] ?? delta['thinking'] ?? delta['content'])
    .filter((text) => typeof text === 'string')
    .join('');
}

/** The blocks that sum a message up and that pause the run, checked apart from the content. */
const NOT_CONTENT = new Set(['message', 'awaiting_frontend_tools']);

describe('recorded Anthropic Messages streams', () => {
  test.each(RECORDED)(
    '$name: anthropic-messages, $status, its findings, blocks, calls and summaries, the same at every chunking',
    (recorded) => {
      const bytes = capture(recorded.name);
      const { result, facts } = decodeRecorded(bytes);
      expect(facts).toEqual({
        formats: ['anthropic-messages'],
        rules: recorded.rules ?? [],
        status: recorded.status,
        chunkingsThatDiffer: [],
      });
      expect(result.blocks.filter((b) => !NOT_CONTENT.has(b.kind)).map((b) => [b.kind, b.content])).toEqual(
        recorded.blocks.map(([kind, content]) => [
          kind,
          typeof content === 'number' ? streamedInto(bytes, content) : content,
        ]),
      );
      const calls = result.blocks.filter((b) => b.kind === 'tool_call' || b.kind === 'server_tool_call');
      expect(calls.map((b) => [b.name, b.toolId, b.parsed])).toEqual(recorded.calls ?? []);
      expect(result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed)).toMatchObject(recorded.messages);
    },
  );

  test.each(RECORDED)('$name: each server tool result is kept whole and linked to its call', ({ name }) => {
    const bytes = capture(name);
    const starts = eventsOf(bytes)
      .map((e) => e.content_block ?? {})
      .filter((block) => typeof block['tool_use_id'] === 'string');
    const { blocks } = decodeBytes(bytes);
    const results = blocks.filter((b) => b.kind === 'server_tool_result');
    expect(results.map((b) => [b.name, b.toolId, JSON.parse(b.content) as unknown])).toEqual(
      starts.map((start) => [start['type'], start['tool_use_id'], start['content']]),
    );
    for (const result of results) expect(blocks.find((b) => b.id === result.linkedBlock)?.toolId).toBe(result.toolId);
  });

  it('a stop on tool_use waits for the client calls, with every block of the message to send back', () => {
    const paused = decodeBytes(capture('anthropic-issue-10819-web-fetch-error'));
    const pause = pauseOf(paused);
    expect(pause?.pendingTools?.map((t) => [t.toolUseId, t.name, t.input])).toEqual([
      ['toolu_01FUuDcCDweLziH8QvQFQLtV', 'display_products', {}],
    ]);
    const content = (pause?.parsed as { message: { content: Record<string, unknown>[] } }).message.content;
    expect(content.map((block) => block['type'])).toEqual([
      'text',
      'server_tool_use',
      'web_fetch_tool_result',
      'text',
      'tool_use',
    ]);
    expect(content[1]?.['input']).toEqual({ url: 'https://httpbin.org/status/500' });
    // The server tool ran and failed: its result says so, the message goes on.
    const result = paused.envelopes.find((e) => e.unified?.family === 'stream.tool_call_result');
    expect(result?.unified?.phase).toBe('failed');
    expect(pauseOf(decodeBytes(capture('anthropic-json-tool')))?.pendingTools?.map((t) => t.name)).toEqual(['json']);
  });

  it('must not: a message that ends its turn, or a tool loop the capture goes on past, waits for nothing', () => {
    for (const name of ['anthropic-mcp', 'anthropic-tool-search-regex', 'anthropic-web-fetch-tool-20260209'])
      expect(pauseOf(decodeBytes(capture(name))), name).toBeUndefined();
  });

  it('compaction: the block holds the summary its compaction_delta streamed, nothing reported unknown', () => {
    const bytes = capture('anthropic-compaction');
    const block = decodeBytes(bytes).blocks[0];
    expect(JSON.parse(block?.content ?? '')).toEqual({ type: 'compaction', content: streamedInto(bytes, 0) });
    expect(streamedInto(bytes, 0)).toMatch(/This was their "final" question in the series\.$/);
  });

  it('web search: each text block carries the citations its citations_delta events gave, in order', () => {
    const bytes = capture('anthropic-web-search-tool');
    const cited = eventsOf(bytes).flatMap(({ type, index, delta = {} }) => {
      const citation = delta['citation'] as Record<string, unknown> | undefined;
      if (type !== 'content_block_delta' || delta['type'] !== 'citations_delta' || !citation) return [];
      return [[index, citation['type'], citation['cited_text'], { url: citation['url'], title: citation['title'] }]];
    });
    expect(cited).toHaveLength(14);
    const blocks = decodeBytes(bytes).blocks.filter((b) => !NOT_CONTENT.has(b.kind));
    const source = ({ fields }: { fields: Record<string, unknown> }) => ({
      url: fields['url'],
      title: fields['title'],
    });
    expect(
      blocks.flatMap((block, index) => block.citations.map((c) => [index, c.citationType, c.citedText, source(c)])),
    ).toEqual(cited);
  });

  it('events padded with spaces decode as the same events written compactly', () => {
    const padded = capture('anthropic-claude-sonnet-5-reasoning-summarized');
    const compact = eventsOf(padded)
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join('');
    const blocksOf = (result: DecodeResult) => result.blocks.map((b) => [b.kind, b.content, b.parsed]);
    expect(blocksOf(decodeBytes(encodeUtf8(compact)))).toEqual(blocksOf(decodeBytes(padded)));
  });
});
