import { describe, expect, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { chunkingsThatDiffer, lastLegStatus, rulesOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';

/** What the AI SDK's own test suite records its streams as (resources/fixtures/external, credited in its README). */
function decoded(name: string) {
  const result = decodeBytes(readExternalFixture(name));
  return { ...result, rules: rulesOf(result), end: lastLegStatus(result) };
}

interface Recorded {
  name: string;
  /** The findings: none on what the SDK writes, but where the stream itself says something went wrong. */
  rules: string[];
  end: EndStatusKind;
  /** Every block but the message summary, as [kind, content]. */
  blocks: [string, unknown][];
  summary: Record<string, unknown>;
}

const stop = { status: 'completed', stop_reason: 'stop' };
const PARSE_FAILED =
  'JSON parsing failed: Text: {"indexName":"shoes_index","query":"running shoes under $100".\n' +
  "Error message: Expected ',' or '}' after property value in JSON at position 61 (line 1 column 62)";
const v4Usage = { usage: { promptTokens: 3, completionTokens: 10, input_tokens: 3, output_tokens: 10 } };

/** More of the SDK's snapshots, each a feature the three above do not have (the README names the tests). */
const MORE: readonly Recorded[] = [
  {
    // Five reasoning parts: one with a signature on an empty delta, an empty (redacted) one, and
    // parts 4 and 5 open at once (part 4 ends after part 5 started).
    name: 'vercel-ai/ui-message-stream-reasoning.sse',
    rules: [],
    end: 'done',
    blocks: [
      ['thinking', 'I will open the conversation with witty banter.'],
      ['thinking', ''],
      ['thinking', ' Once the user has relaxed, I will pry for valuable information.'],
      ['thinking', ' I need to think about this problem carefully.'],
      ['thinking', ' The best solution requires careful consideration of all factors.'],
      ['text', 'Hi there!'],
    ],
    summary: stop,
  },
  {
    name: 'vercel-ai/ui-message-stream-sources.sse',
    rules: [],
    end: 'done',
    blocks: [
      [
        'source-url',
        '{"sourceId":"123","url":"https://example.com","title":"Example","providerMetadata":{"provider":{"custom":"value"}}}',
      ],
      ['text', 'Hello!'],
      [
        'source-url',
        '{"sourceId":"456","url":"https://example.com/2","title":"Example 2","providerMetadata":{"provider":{"custom":"value2"}}}',
      ],
    ],
    summary: stop,
  },
  {
    // The first file's data is no base64 (the suite's mock): a file part is shown as sent, not checked.
    name: 'vercel-ai/ui-message-stream-files.sse',
    rules: [],
    end: 'done',
    blocks: [
      ['file', '{"mediaType":"text/plain","url":"data:text/plain;base64,Hello World"}'],
      ['text', 'Hello!'],
      ['file', '{"mediaType":"image/jpeg","url":"data:image/jpeg;base64,QkFVRw=="}'],
    ],
    summary: stop,
  },
  {
    // Metadata without a model or usage: the summary keeps it whole, merged part by part as
    // useChat merges it into message.metadata.
    name: 'vercel-ai/ui-message-stream-metadata.sse',
    rules: [],
    end: 'done',
    blocks: [['text', 'Hello, world!']],
    summary: {
      ...stop,
      metadata: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`key${i + 1}`, `value${i + 1}`])),
    },
  },
  {
    name: 'vercel-ai/ui-message-stream-approval.sse',
    rules: [],
    end: 'paused',
    blocks: [
      ['tool_call', '{"value":"value-needs-approval"}'],
      ['tool_call', '{"value":"value-no-approval"}'],
      ['tool_result', 'result for value-no-approval'],
      ['awaiting_frontend_tools', expect.any(String)],
    ],
    summary: { status: 'completed', stop_reason: 'tool-calls' },
  },
  {
    // The response after the approval: the approved call came in the response before, so this
    // capture alone has no call for its output (true of the capture; the session that holds
    // both responses links them).
    name: 'vercel-ai/ui-message-stream-approved-preliminary.sse',
    rules: ['tool.result-without-call'],
    end: 'done',
    blocks: [
      ['tool_result', 'final-result'],
      ['text', 'Hello, world!'],
    ],
    summary: stop,
  },
  {
    // The provider's tool failed (tool-output-error): what the stream says, reported as such.
    name: 'vercel-ai/ui-message-stream-provider-tool-error.sse',
    rules: ['ai-sdk.tool-output-error'],
    end: 'done',
    blocks: [
      ['server_tool_call', '{"value":"value"}'],
      ['server_tool_result', '{ "value": "result1" }'],
      ['server_tool_call', '{"value":"value"}'],
      ['server_tool_result', 'ERROR'],
    ],
    summary: stop,
  },
  {
    // Recorded from a live AI SDK 5 server (algolia/instantsearch's suite): the model's arguments
    // do not parse, so streamText sends tool-input-error, then the same error as tool-output-error
    // (one error, the tool never ran), ends the step, and the next step answers.
    name: 'vercel-ai/ui-message-stream-tool-input-error.sse',
    rules: ['provider.tool-args-invalid', 'ai-sdk.tool-input-error'],
    end: 'done',
    blocks: [
      ['tool_call', '{"indexName":"shoes_index","query":"running shoes under $100"'],
      ['tool_result', `Invalid input for tool algolia_search_index: ${PARSE_FAILED}`],
      ['text', 'Sorry, search is unavailable right now.'],
    ],
    summary: stop,
  },
  {
    // A signature (j:) is an event; redacted reasoning (i:) ends the reasoning part before it.
    name: 'vercel-ai/data-stream-reasoning.txt',
    rules: [],
    end: 'done',
    blocks: [
      ['thinking', 'I will open the conversation with witty banter. '],
      ['redacted_thinking', '{"data":"redacted-reasoning-data"}'],
      ['thinking', 'Once the user has relaxed, I will pry for valuable information.'],
      ['text', 'Hi there!'],
    ],
    summary: { id: 'msg-0', ...stop, ...v4Usage },
  },
  {
    name: 'vercel-ai/data-stream-sources.txt',
    rules: [],
    end: 'done',
    blocks: [
      [
        'source',
        '{"sourceType":"url","id":"123","url":"https://example.com","title":"Example","providerMetadata":{"provider":{"custom":"value"}}}',
      ],
      ['text', 'Hello!'],
      [
        'source',
        '{"sourceType":"url","id":"456","url":"https://example.com/2","title":"Example 2","providerMetadata":{"provider":{"custom":"value2"}}}',
      ],
    ],
    summary: { id: 'msg-0', ...stop, ...v4Usage },
  },
  {
    name: 'vercel-ai/data-stream-tool-calls.txt',
    rules: [],
    end: 'done',
    blocks: [
      ['tool_call', '{"value":"value"}'],
      ['tool_result', 'value-result'],
    ],
    summary: { id: 'msg-0', ...stop, ...v4Usage },
  },
  {
    // The masked error of toDataStream: an error part, then e: and d: with finishReason error.
    name: 'vercel-ai/data-stream-error.txt',
    rules: ['provider.api-error'],
    end: 'error',
    blocks: [['error', '{"errorText":"An error occurred."}']],
    summary: {
      id: 'msg-0',
      status: 'failed',
      stop_reason: 'error',
      error: 'An error occurred.',
      usage: { promptTokens: 0, completionTokens: 0, input_tokens: 0, output_tokens: 0 },
    },
  },
  {
    // Merged StreamData: its data part comes before the first step, which still names the message.
    name: 'vercel-ai/data-stream-with-data.txt',
    rules: [],
    end: 'done',
    blocks: [
      ['data', '["stream-data-value"]'],
      ['text', 'Hello, world!'],
    ],
    summary: { id: 'msg-0', ...stop, ...v4Usage },
  },
];

/**
 * Pydantic AI's Vercel AI adapter (its own test suite's streams): a run that fails sends an
 * error part, then finish-step and finish with finishReason error. Its calls without output were
 * the server's, and the run ended: the message failed and waits for nothing.
 */
const PYDANTIC_AI: readonly Recorded[] = [
  {
    // The agent's own tool raised after its call streamed.
    name: 'pydantic-ai/vercel-ai-tool-raised.sse',
    rules: ['provider.api-error', 'tool.call-without-result'],
    end: 'error',
    blocks: [
      ['tool_call', '{"query":"a"}'],
      ['error', '{"errorText":"Unknown tool"}'],
    ],
    summary: { status: 'failed', stop_reason: 'error', error: 'Unknown tool' },
  },
  {
    // A call of an unknown tool, its error as its result, the retry's call, then the run gives up.
    name: 'pydantic-ai/vercel-ai-retries-exceeded.sse',
    rules: ['ai-sdk.tool-output-error', 'provider.api-error', 'tool.call-without-result'],
    end: 'error',
    blocks: [
      ['tool_call', '{}'],
      ['tool_result', "Unknown tool name: 'unknown_tool'. No tools available.\n\nFix the errors and try again."],
      ['tool_call', '{}'],
      ['error', '{"errorText":"Exceeded maximum retries (1) for output validation"}'],
    ],
    summary: {
      status: 'failed',
      stop_reason: 'error',
      error: 'Exceeded maximum retries (1) for output validation',
    },
  },
];

describe('streams the AI SDK writes', () => {
  test.each([
    'vercel-ai/ui-message-stream-error.sse',
    'vercel-ai/ui-message-stream-tool.sse',
    'vercel-ai/data-stream-text.txt',
    ...MORE.map((r) => r.name),
    ...PYDANTIC_AI.map((r) => r.name),
  ])('%s: the same at every chunking', (name) => {
    expect(chunkingsThatDiffer(readExternalFixture(name))).toEqual([]);
  });

  test('the error response of toUIMessageStreamResponse: an error part, then finish-step and finish; ended by error', () => {
    const result = decoded('vercel-ai/ui-message-stream-error.sse');
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual(['provider.api-error']);
    expect(result.end).toBe('error');
    expect(result.blocks.map((b) => b.kind)).toEqual(['error', 'message']);
    expect(result.blocks[1]?.parsed).toMatchObject({ status: 'failed', stop_reason: 'error', error: 'error' });
  });

  test('a tool call with streamed input and its result: parsed input, linked result, done', () => {
    const result = decoded('vercel-ai/ui-message-stream-tool.sse');
    expect(result.rules).toEqual([]);
    expect(result.end).toBe('done');
    const [call, output] = result.blocks;
    expect(call).toMatchObject({ kind: 'tool_call', toolId: 'call-1', name: 'tool1', parsed: { value: 'value' } });
    expect(output).toMatchObject({ kind: 'tool_result', content: 'value-result', linkedBlock: call?.id });
    // The stream names neither its message nor its model: the summary says so by leaving them out, not as "".
    expect(result.blocks.at(-1)?.parsed).toEqual({ status: 'completed', stop_reason: 'stop' });
  });

  test('a v4 data stream: line-framed, its text joined, usage from the finish part, done', () => {
    const result = decoded('vercel-ai/data-stream-text.txt');
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual([]);
    expect(result.end).toBe('done');
    expect(result.frames[0]).toHaveLength(6);
    expect(result.blocks.map((b) => [b.kind, b.agent])).toEqual([
      ['text', 'msg-0'],
      ['message', 'msg-0'],
    ]);
    expect(result.blocks[0]?.content).toBe('Hello, world!');
    expect(result.blocks[1]?.parsed).toMatchObject({
      id: 'msg-0',
      usage: { input_tokens: 3, output_tokens: 10 },
      stop_reason: 'stop',
    });
    expect(result.blocks[1]?.parsed).not.toHaveProperty('model');
  });

  test.each([...MORE, ...PYDANTIC_AI])('$name: ai-sdk-ui, its findings, end, blocks and summary', (recorded) => {
    const result = decoded(recorded.name);
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual(recorded.rules);
    expect(result.end).toBe(recorded.end);
    const [summary, ...more] = result.blocks.filter((b) => b.kind === 'message');
    expect(more).toEqual([]);
    expect(result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content])).toEqual(recorded.blocks);
    expect(summary?.parsed).toEqual(recorded.summary);
  });

  test('reasoning parts open at once: each its own block, by its id, none abandoned', () => {
    const { blocks } = decoded('vercel-ai/ui-message-stream-reasoning.sse');
    expect(blocks.filter((b) => b.kind === 'thinking').map((b) => [b.toolId, b.status])).toEqual(
      ['1', '2', '3', '4', '5'].map((id) => [id, 'complete']),
    );
  });

  test('an approval request: the call waits for its approval; the call without one has its result', () => {
    const { blocks } = decoded('vercel-ai/ui-message-stream-approval.sse');
    const pause = blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools).toEqual([
      { toolUseId: 'call-1', name: 'tool1', input: { value: 'value-needs-approval' }, approvalId: 'id-1' },
    ]);
    const executed = blocks.find((b) => b.toolId === 'call-2' && b.kind === 'tool_call');
    expect(blocks.find((b) => b.kind === 'tool_result')?.linkedBlock).toBe(executed?.id);
  });

  test('the approved call runs: its preliminary outputs are events, the last output is its result', () => {
    const result = decoded('vercel-ai/ui-message-stream-approved-preliminary.sse');
    const preliminary = result.envelopes.filter((e) => e.unified?.phase === 'preliminary');
    expect(preliminary.map((e) => e.extras['output'])).toEqual(['preliminary-result', 'final-result']);
    expect(result.blocks[0]).toMatchObject({ kind: 'tool_result', toolId: 'call-1' });
  });

  test("the provider's tool calls: their results and their error are the provider's, linked to each call", () => {
    const { blocks } = decoded('vercel-ai/ui-message-stream-provider-tool-error.sse');
    expect(blocks.slice(0, 4).map((b) => [b.kind, b.toolId, b.linkedBlock])).toEqual([
      ['server_tool_call', 'call-1', 1],
      ['server_tool_result', 'call-1', 0],
      ['server_tool_call', 'call-2', 3],
      ['server_tool_result', 'call-2', 2],
    ]);
  });

  test('v4: the streamed call gets its parsed arguments and its result; every block is the message’s', () => {
    const { blocks } = decoded('vercel-ai/data-stream-tool-calls.txt');
    expect(blocks[0]).toMatchObject({ kind: 'tool_call', toolId: 'call-1', name: 'tool1', parsed: { value: 'value' } });
    expect(blocks[1]?.linkedBlock).toBe(blocks[0]?.id);
    expect(new Set(blocks.map((b) => b.agent))).toEqual(new Set(['msg-0']));
  });

  test('v4: a data part before the first step stays out of the message the step names', () => {
    const { blocks } = decoded('vercel-ai/data-stream-with-data.txt');
    expect(blocks.map((b) => [b.kind, b.agent])).toEqual([
      ['data', ''],
      ['text', 'msg-0'],
      ['message', 'msg-0'],
    ]);
  });

  test('a call the server could not use: its arguments as the model wrote them, its one error as its result, then the next step', () => {
    const { blocks, envelopes } = decoded('vercel-ai/ui-message-stream-tool-input-error.sse');
    const [call, error] = blocks;
    expect(call).toMatchObject({ kind: 'tool_call', toolId: 'call_1', name: 'algolia_search_index' });
    expect(error).toMatchObject({ kind: 'tool_result', toolId: 'call_1', linkedBlock: call?.id });
    expect(envelopes.find((e) => e.type === 'tool_result')?.extras).toMatchObject({ is_error: true });
    expect(envelopes.filter((e) => e.unified?.phase === 'start-step')).toHaveLength(2);
  });
});
