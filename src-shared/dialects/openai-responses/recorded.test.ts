import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { pauseOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import {
  blocksOf,
  completedSummary,
  expectRecorded,
  type RecordedResponses,
} from '../../../src-main/testing/recorded-responses';

/**
 * Responses API streams recorded by the AI SDK's test suite (resources/fixtures/external/
 * openai-responses, credited in its README), OpenAI's and xAI's own implementation of the API:
 * each is this dialect at every chunking, ends as its stream says, with exactly the findings it
 * deserves and the blocks its items make.
 */
const completed = completedSummary;
const WEB_SEARCH = ['server_tool_call', 'server_tool_result'];
const PAUSED_ON = (call: string) => [call, 'awaiting_frontend_tools'];

const RECORDED: readonly RecordedResponses[] = [
  {
    name: 'openai-web-search-tool.data-only.sse',
    status: 'done',
    rules: [],
    kinds: [...WEB_SEARCH, ...WEB_SEARCH, ...WEB_SEARCH, ...WEB_SEARCH, 'text'],
    summaries: [completed('gpt-5-nano-2025-08-07', 60093, 4080)],
  },
  {
    name: 'github-copilot-id-rotation.data-only.sse',
    status: 'done',
    rules: [],
    kinds: ['reasoning_summary', 'text'],
    summaries: [completed('gpt-5.3-codex', 19, 105)],
  },
  {
    name: 'issue-19493-gpt-5.1-tool-call.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: PAUSED_ON('tool_call'),
    summaries: [completed('gpt-5.1-2025-11-13', 45, 25)],
  },
  {
    name: 'issue-19067-parallel-tool-call-wrapper.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: PAUSED_ON('tool_call'),
    summaries: [completed('gpt-5.4', 34, 28)],
  },
  {
    // The suite wrote this one without sequence numbers: none is checked, none is missed.
    name: 'openai-custom-tool.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: PAUSED_ON('custom_tool_call'),
    summaries: [completed('gpt-5.2-codex', 50, 20)],
  },
  {
    name: 'openai-mcp-tool-approval.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: ['server_tool_call', 'server_tool_result', ...PAUSED_ON('server_tool_call')],
    summaries: [completed('gpt-5-mini-2025-08-07', 422, 48)],
  },
  {
    name: 'openai-local-shell-tool.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: PAUSED_ON('tool_call'),
    summaries: [completed('gpt-5-codex', 407, 151)],
  },
  {
    name: 'openai-apply-patch-tool.data-only.sse',
    status: 'paused',
    rules: [],
    kinds: PAUSED_ON('tool_call'),
    summaries: [completed('gpt-5.1-2025-11-13', 642, 67)],
  },
  {
    // A tool loop: the shell call, then the response the client's output got. That output went
    // in the second request, which the capture does not hold: the call got no result in it.
    name: 'openai-shell-tool.data-only.sse',
    status: 'done',
    rules: ['provider.next-message', 'tool.call-without-result'],
    kinds: ['tool_call', 'text'],
    summaries: [completed('gpt-5.1-2025-11-13', 145, 41), completed('gpt-5.1-2025-11-13', 331, 166)],
  },
  {
    name: 'openai-shell-container.data-only.sse',
    status: 'done',
    rules: [],
    kinds: ['tool_call', 'tool_result', 'text'],
    summaries: [completed('gpt-5.2-2025-12-11', 200, 120)],
  },
  {
    // The API's error event, then the response's response.failed: both say the response failed.
    name: 'openai-error.data-only.sse',
    status: 'error',
    rules: ['provider.api-error', 'provider.response-failed'],
    kinds: ['error'],
    summaries: [{ model: 'gpt-5-nano-2025-08-07', status: 'failed', error: { code: 'insufficient_quota' } }],
  },
  {
    // The error event alone, as the suite recorded it (its sequence_number 2: what came before was cut).
    name: 'openai-error-null-code.data-only.sse',
    status: 'error',
    rules: ['provider.api-error'],
    kinds: ['error'],
    summaries: [],
  },
  {
    name: 'openai-response-failed-only.data-only.sse',
    status: 'error',
    rules: ['provider.response-failed'],
    kinds: [],
    summaries: [{ model: 'gpt-4o-mini', status: 'failed', error: { code: 'rate_limit_exceeded' } }],
  },
  // xAI's own Responses API (grok models), recorded by the suite's xAI provider.
  {
    // Its web search then: one web_search_call shaped as a function call, no status events.
    name: 'xai-web-search-tool.data-only.sse',
    status: 'done',
    rules: [],
    kinds: [...WEB_SEARCH, 'text'],
    summaries: [completed('grok-4-fast-reasoning', 1875, 695)],
  },
  {
    name: 'xai-13218-web-search-provider-tool-result.data-only.sse',
    status: 'done',
    rules: [],
    kinds: [...WEB_SEARCH, ...WEB_SEARCH, 'text'],
    summaries: [completed('grok-4-fast-non-reasoning', 4144, 49)],
  },
  {
    // 199 output tokens against max_output_tokens 16, yet completed: its answer is whole, kept as sent.
    name: 'xai-issue-17936-stream.data-only.sse',
    status: 'done',
    rules: [],
    kinds: ['reasoning_summary', 'text'],
    summaries: [completed('grok-4.3', 197, 199)],
  },
  {
    // The Codex CLI's test stream (openai/codex): a whole message item in a done event alone,
    // with no output_index, and a line that is no SSE field inside that event.
    name: 'codex-cli-responses-fixture.sse',
    status: 'done',
    rules: ['sse.ignored-line', 'provider.block-not-started', 'sse.unterminated-last-event'],
    kinds: ['text'],
    summaries: [{ id: 'resp1', status: 'completed' }],
  },
  {
    // The suite kept the last event of a live stream alone (no response.created, no
    // sequence_number): what it says is kept, xAI's usage fields with it.
    name: 'xai-issue-19652-live-stream.data-only.sse',
    status: 'done',
    rules: [],
    kinds: [],
    summaries: [
      {
        model: 'grok-4.6',
        status: 'completed',
        usage: { input_tokens: 5467, output_tokens: 593, cost_in_usd_ticks: 177640000 },
      },
    ],
  },
];

const decode = (name: string) => decodeBytes(readExternalFixture(`openai-responses/${name}`));

describe('recorded OpenAI Responses streams', () => {
  test.each(RECORDED)(
    '$name: openai-responses, $status, exactly its findings, its blocks and summaries, the same at every chunking',
    (recorded) => {
      expectRecorded('openai-responses', recorded);
    },
  );

  it('web search: each call keeps its query or sources and phases, linked to its result; the answer keeps its six citations', () => {
    const result = decode('openai-web-search-tool.data-only.sse');
    const calls = blocksOf(result, 'server_tool_call');
    expect(calls[0]?.parsed).toMatchObject({
      type: 'web_search_call',
      action: { type: 'search', query: 'Berlin news today' },
      phases: ['in_progress', 'searching', 'completed'],
    });
    expect(calls.map((c) => result.blocks[c.linkedBlock ?? -1]?.kind)).toEqual(Array(4).fill('server_tool_result'));
    const [text] = blocksOf(result, 'text');
    expect(text?.content).toMatch(/^Here’s what’s notable in Berlin today \(September 10, 2025\)/);
    expect(text?.content).toMatch(/\(arts, politics, sports\) from today\?$/);
    expect(text?.citations.map((c) => c.citationType)).toEqual(Array(6).fill('url_citation'));
  });

  it('Copilot rotates every id (item ids, response ids): one response, its summary and answer kept whole', () => {
    const result = decode('github-copilot-id-rotation.data-only.sse');
    expect(blocksOf(result, 'reasoning_summary').map((b) => b.content)).toEqual(['**Counting character occurrences**']);
    expect(blocksOf(result, 'text').map((b) => b.content)).toEqual([
      'There are **3** letter **“r”**s in **“strawberry.”**\n\nBreakdown: **s t r a w b e r r y**  \nYou can see **r** at positions **3, 8, and 9**.',
    ]);
    // The summary names the response as response.created did.
    expect(blocksOf(result, 'message')[0]?.parsed).toMatchObject({ id: 'capture-id-1' });
  });

  it.each([
    [
      'issue-19493-gpt-5.1-tool-call.data-only.sse',
      'call_2FQdm3Br7Qb35YUBSkDR7kue',
      'get_weather',
      { city: 'Beijing' },
    ],
    [
      'issue-19067-parallel-tool-call-wrapper.data-only.sse',
      'call_parallel',
      'parallel',
      {
        tool_uses: [
          { recipient_name: 'functions.weather', parameters: { location: 'San Francisco' } },
          { recipient_name: 'functions.cityAttractions', parameters: { city: 'Rome' } },
        ],
      },
    ],
  ])('%s: the function call, its arguments parsed, waits for its output', (name, id, tool, input) => {
    const result = decode(name);
    expect(blocksOf(result, 'tool_call').map((b) => [b.toolId, b.name, b.parsed])).toEqual([[id, tool, input]]);
    expect(pauseOf(result)?.pendingTools).toEqual([{ toolUseId: id, name: tool, input }]);
    expect(pauseOf(result)?.parsed).toMatchObject({ outputs: { [id]: 'function_call_output' } });
  });

  it('custom tool: its input text, waiting for a custom_tool_call_output', () => {
    const result = decode('openai-custom-tool.data-only.sse');
    expect(blocksOf(result, 'custom_tool_call').map((b) => b.content)).toEqual(['SELECT * FROM users WHERE age > 25']);
    expect(pauseOf(result)?.parsed).toMatchObject({ outputs: { call_custom_sql_001: 'custom_tool_call_output' } });
  });

  it('MCP: the server lists its four tools; the call that needs approval waits for it', () => {
    const result = decode('openai-mcp-tool-approval.data-only.sse');
    const [list, approval] = blocksOf(result, 'server_tool_call');
    expect(JSON.parse(result.blocks[list?.linkedBlock ?? -1]?.content ?? '[]')).toHaveLength(4);
    expect(approval?.parsed).toMatchObject({ approval_request: true, server_label: 'zip1', name: 'create_short_url' });
    const id = 'mcpr_04a97b4fce127879006949a83ac9308195a7f7b69ea82e91fe';
    expect(pauseOf(result)?.pendingTools).toEqual([
      {
        toolUseId: id,
        name: 'create_short_url',
        input: {
          alias: '',
          description: 'Shortened link for ai-sdk.dev',
          max_clicks: 100,
          password: '',
          url: 'https://ai-sdk.dev/',
        },
        approvalId: id,
      },
    ]);
  });

  it.each([
    [
      'openai-local-shell-tool.data-only.sse',
      'local_shell',
      { type: 'exec', command: ['ls', '-a', '~'], env: {} },
      'local_shell_call_output',
    ],
    [
      'openai-apply-patch-tool.data-only.sse',
      'apply_patch',
      {
        type: 'create_file',
        diff: '+## Shopping Checklist\n+\n+- [ ] Milk\n+- [ ] Bread\n+- [ ] Eggs\n+- [ ] Fresh fruit\n+- [ ] Coffee\n',
        path: 'shopping-checklist.md',
      },
      'apply_patch_call_output',
    ],
  ])(
    '%s: a tool the client runs is its call, what to run as its input, waiting for its output',
    (name, tool, input, output) => {
      const result = decode(name);
      expect(blocksOf(result, 'tool_call').map((b) => [b.name, b.parsed])).toEqual([[tool, input]]);
      expect(blocksOf(result, 'server_tool_result')).toEqual([]);
      const [pending] = pauseOf(result)?.pendingTools ?? [];
      expect(pending).toMatchObject({ name: tool, input });
      expect(pauseOf(result)?.parsed).toMatchObject({ outputs: { [pending?.toolUseId ?? '']: output } });
    },
  );

  it("shell: the client's command, then the next response's answer; in the API's container, the output it streamed", () => {
    const local = decode('openai-shell-tool.data-only.sse');
    expect(blocksOf(local, 'tool_call').map((b) => [b.name, b.parsed])).toEqual([
      ['shell', { commands: ['ls -a ~/Desktop'], max_output_length: 8912, timeout_ms: null }],
    ]);
    expect(blocksOf(local, 'text')[0]?.content).toMatch(/^Here are the files and folders in your `~\/Desktop`/);
    const hosted = decode('openai-shell-container.data-only.sse');
    const [call] = blocksOf(hosted, 'tool_call');
    expect(call?.parsed).toMatchObject({ commands: ["echo 'Hello from container!' && uname -a"] });
    expect(JSON.parse(hosted.blocks[call?.linkedBlock ?? -1]?.content ?? '[]')).toEqual([
      {
        outcome: { type: 'exit', exit_code: 0 },
        stderr: '',
        stdout: 'Hello from container!\nLinux container-host 6.1.0 #1 SMP x86_64 GNU/Linux\n',
      },
    ]);
  });

  it('errors: the nested error object is the error block and says the code; its response is summed up once', () => {
    const result = decode('openai-error.data-only.sse');
    expect(blocksOf(result, 'error')[0]?.parsed).toEqual({
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: expect.stringMatching(/^You exceeded your current quota/) as unknown,
      param: null,
    });
    expect(result.diagnostics[0]?.message).toMatch(/^The API sent an error \(insufficient_quota\): You exceeded/);
    const alone = decode('openai-error-null-code.data-only.sse');
    expect(alone.diagnostics[0]?.message).toBe(
      'The API sent an error as the first event: Sorry, something went wrong.',
    );
  });

  it("xAI's web search: each call as its done item gives it, linked to its status; the answers keep their citations", () => {
    const searched = decode('xai-13218-web-search-provider-tool-result.data-only.sse');
    const calls = blocksOf(searched, 'server_tool_call');
    expect(calls.map((c) => c.parsed)).toMatchObject([
      {
        action: { query: 'current title of https://x.ai site:x.ai' },
        phases: ['in_progress', 'searching', 'completed'],
      },
      { action: { query: 'https://x.ai' }, phases: ['in_progress', 'searching', 'completed'] },
    ]);
    expect(calls.map((c) => (c.parsed as { action: { sources: unknown[] } }).action.sources.length)).toEqual([5, 5]);
    expect(calls.map((c) => searched.blocks[c.linkedBlock ?? -1]?.kind)).toEqual(Array(2).fill('server_tool_result'));
    const [answer] = blocksOf(searched, 'text');
    expect(answer?.content).toBe('**xAI**');
    // All nine span 0..0: inside the text, however little they point at.
    expect(answer?.citations.map((c) => [c.fields['start_index'], c.fields['end_index']])).toEqual(
      Array(9).fill([0, 0]),
    );
    // A call with a function's shape (name, arguments, an empty call_id), no action and no phases.
    const shaped = decode('xai-web-search-tool.data-only.sse');
    expect(blocksOf(shaped, 'server_tool_call')[0]?.parsed).toMatchObject({
      type: 'web_search_call',
      name: 'web_search',
      arguments: '{"query":"what is xAI","num_results":5}',
      phases: [],
    });
    const [text] = blocksOf(shaped, 'text');
    expect(text?.content).toMatch(/^xAI is an American artificial intelligence company founded by Elon Musk/);
    expect(text?.citations.map((c) => Object.keys(c.fields))).toEqual(Array(5).fill(['url']));
  });

  it('Codex CLI: a message item given whole by its done event alone keeps its text, as the finding says', () => {
    const result = decode('codex-cli-responses-fixture.sse');
    expect(blocksOf(result, 'text').map((b) => [b.content, b.status])).toEqual([['fixture hello', 'complete']]);
    expect(result.diagnostics.find((d) => d.rule === 'provider.block-not-started')?.message).toMatch(
      /has no integer output_index, .*; decoded from its item alone\.$/,
    );
  });

  it("xAI's reasoning summary streams as a summary part, the answer after it", () => {
    const result = decode('xai-issue-17936-stream.data-only.sse');
    expect(blocksOf(result, 'reasoning_summary').map((b) => b.content)).toEqual([
      'The user says: "Reply with exactly: hello"\n',
    ]);
    expect(blocksOf(result, 'text').map((b) => b.content)).toEqual(['hello']);
  });
});
