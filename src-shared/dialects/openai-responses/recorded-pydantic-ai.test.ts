import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeBytes } from '../../pipeline/session-decoder';
import {
  blocksOf,
  completedSummary,
  expectRecorded,
  type RecordedResponses,
} from '../../../src-main/testing/recorded-responses';

/**
 * Responses API streams recorded by pydantic-ai's test suite (resources/fixtures/external/
 * pydantic-ai, credited in resources/fixtures/external/README.md): OpenAI's API (an MCP server's
 * tools listed and called, a file search cited, encrypted reasoning beside moderation results, a
 * background response queued first, MCP tool lists whose done events never came) and OpenRouter's (a model's raw reasoning text). Each is this
 * dialect at every chunking, ends as its stream says, with exactly the findings it deserves and
 * the blocks its items make. (The vercel/ai captures are in recorded.test.ts.)
 */
const completed = completedSummary;
const SERVER_CALL = ['server_tool_call', 'server_tool_result'];

const RECORDED: readonly RecordedResponses[] = [
  {
    name: 'openai-responses-mcp-call.sse',
    status: 'done',
    rules: [],
    kinds: [...SERVER_CALL, ...SERVER_CALL, 'text'],
    summaries: [completed('gpt-4o-2024-08-06', 107, 34)],
  },
  {
    name: 'openai-responses-file-search.sse',
    status: 'done',
    rules: [],
    kinds: [...SERVER_CALL, 'text'],
    summaries: [completed('gpt-4o-2024-08-06', 1177, 37)],
  },
  {
    // A reasoning item with encrypted_content and no summary: a redacted thinking block, then the answer.
    name: 'openai-responses-encrypted-reasoning-moderation.sse',
    status: 'done',
    rules: [],
    kinds: ['redacted_thinking', 'text'],
    summaries: [
      {
        ...completed('gpt-5-2025-08-07', 13, 59),
        usage: {
          input_tokens: 13,
          input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
          output_tokens: 59,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 72,
        },
        // Both sides checked by the API and passed: the summary keeps its results.
        moderation: {
          input: { type: 'moderation_result', flagged: false },
          output: { type: 'moderation_result', flagged: false },
        },
      },
    ],
  },
  {
    // OpenRouter: a keep-alive comment, no `event:` lines, temporary item ids, the reasoning
    // part closed after the message item, and `data: [DONE]` after response.completed.
    name: 'openrouter-responses-reasoning-text.data-only.sse',
    status: 'done',
    rules: [],
    kinds: ['thinking', 'text'],
    summaries: [
      {
        ...completed('openai/gpt-oss-20b', 78, 37),
        id: 'gen-1764265411-Fu1iEX7h5MRWiL79lb94',
        usage: { output_tokens_details: { reasoning_tokens: 22 }, total_tokens: 115, cost: 0.0000113 },
      },
    ],
  },
  {
    // Three MCP servers list their tools; only the third list gets its output_item.done. The other
    // two are found not done, and their blocks come from response.completed's output.
    name: 'openai-responses-mcp-list-tools-not-done.sse',
    status: 'done',
    rules: ['provider.block-not-stopped', 'provider.block-not-stopped'],
    kinds: [...SERVER_CALL, 'text', ...SERVER_CALL, ...SERVER_CALL],
    summaries: [completed('gpt-4.1-2025-04-14', 1199, 103)],
  },
  {
    // Background mode: created and response.queued say "queued", then in_progress.
    name: 'openai-responses-background-queued.sse',
    status: 'done',
    rules: [],
    kinds: ['text'],
    summaries: [completed('gpt-4o-2024-08-06', 15, 9)],
  },
];

const decode = (name: string) => decodeBytes(readExternalFixture(`pydantic-ai/${name}`));

describe("recorded OpenAI Responses streams of pydantic-ai's suite", () => {
  test.each(RECORDED)(
    '$name: openai-responses, $status, exactly its findings, its blocks and summaries, the same at every chunking',
    (recorded) => {
      expectRecorded('pydantic-ai', recorded);
    },
  );

  it('MCP: the listed tool, then the call the API ran, its empty arguments and its output linked to it', () => {
    const result = decode('openai-responses-mcp-call.sse');
    const [list, call] = blocksOf(result, 'server_tool_call');
    expect(list?.parsed).toMatchObject({ type: 'mcp_list_tools', server_label: 'test_server' });
    expect(JSON.parse(result.blocks[list?.linkedBlock ?? -1]?.content ?? '[]')).toMatchObject([
      { name: 'get_my_games', description: 'Returns a list of my favorite games.' },
    ]);
    expect([call?.toolId, call?.name, call?.parsed]).toEqual([
      'mcp_064f1d59f12b340a0068e64c01557881a0ad7e41daf9c7a8b7',
      'get_my_games',
      { server_label: 'test_server', name: 'get_my_games', arguments: {}, phases: ['in_progress', 'completed'] },
    ]);
    expect(result.blocks[call?.linkedBlock ?? -1]?.content).toBe('["Lies of P", "Bloodborne", "Sekiro"]');
    expect(blocksOf(result, 'text').map((b) => b.content)).toEqual([
      'You have the following games:\n\n- Lies of P\n- Bloodborne\n- Sekiro',
    ]);
  });

  it("MCP lists without their done events: each server's tools, from the response's output", () => {
    const result = decode('openai-responses-mcp-list-tools-not-done.sse');
    const lists = blocksOf(result, 'server_tool_call');
    expect(lists.map((b) => (b.parsed as { server_label: string }).server_label)).toEqual([
      'gitmcp',
      'deepwiki',
      'microsoft_learn',
    ]);
    expect(lists.map((b) => (b.parsed as { phases: string[] }).phases)).toEqual(
      Array(3).fill(['in_progress', 'completed']),
    );
    const names = lists.map((b) =>
      (JSON.parse(result.blocks[b.linkedBlock ?? -1]?.content ?? '[]') as { name: string }[]).map((t) => t.name),
    );
    expect(names).toEqual([
      [
        'fetch_pydantic_ai_documentation',
        'search_pydantic_ai_documentation',
        'search_pydantic_ai_code',
        'fetch_generic_url_content',
      ],
      ['read_wiki_structure', 'read_wiki_contents', 'ask_question'],
      ['microsoft_docs_search', 'microsoft_code_sample_search', 'microsoft_docs_fetch'],
    ]);
    expect(result.diagnostics.map((d) => d.message)).toEqual(
      [0, 1].map(
        (i) =>
          `The mcp_list_tools output item ${i} added in event ${2 * i + 2} got no done event before response.completed (event 118); decoded from the item the response's output gives.`,
      ),
    );
    expect(blocksOf(result, 'text')[0]?.content).toMatch(
      /^Here are the available tools from each connected MCP server:/,
    );
  });

  it('file search: its query and phases, a result without results (not included), the answer cites the file', () => {
    const result = decode('openai-responses-file-search.sse');
    const [call] = blocksOf(result, 'server_tool_call');
    expect(call?.parsed).toMatchObject({
      type: 'file_search_call',
      queries: ['What is the capital of France?'],
      phases: ['in_progress', 'searching', 'completed'],
    });
    expect(result.blocks[call?.linkedBlock ?? -1]?.content).toBe('{"status":"completed"}');
    const [text] = blocksOf(result, 'text');
    expect(text?.content).toBe('The capital of France is Paris.');
    expect(text?.citations.map((c) => [c.citationType, c.fields])).toEqual([
      ['file_citation', { file_id: 'file-9RhPAs9YqVajpGXRfcgavJ', filename: 'tmp8l5_2pzy.txt', index: 30 }],
    ]);
  });

  it("OpenRouter's raw reasoning text is the thinking, whole, before the answer", () => {
    const result = decode('openrouter-responses-reasoning-text.data-only.sse');
    expect(blocksOf(result, 'thinking').map((b) => b.content)).toEqual([
      'The user asks: "What is 2+2?" They expect a straightforward answer: 4. Just answer 4.',
    ]);
    expect(blocksOf(result, 'text').map((b) => b.content)).toEqual(['4']);
  });

  it('encrypted reasoning and background mode: the answer whole; the reasoning item kept as it came, its encrypted content with it', () => {
    const encrypted = decode('openai-responses-encrypted-reasoning-moderation.sse');
    expect(blocksOf(encrypted, 'text')[0]?.content).toBe('Paris.');
    const item: unknown = JSON.parse(blocksOf(encrypted, 'redacted_thinking')[0]?.content ?? '');
    expect(item).toMatchObject({
      type: 'reasoning',
      summary: [],
      encrypted_content: expect.stringMatching(/^gAAAAA[\w-]{100,}=*$/) as unknown,
    });
    expect(blocksOf(decode('openai-responses-background-queued.sse'), 'text')[0]?.content).toBe('2 + 2 equals 4.');
  });
});
