import { describe, expect, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded, pauseOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';

/**
 * Chat Completions streams the svir SDK's conformance suite recorded from local and hosted
 * servers (resources/fixtures/external/openai-chat, `svir-*`, credited in its README): each one
 * is this dialect, the same at every chunking, ends as its stream says, with exactly the
 * findings the capture deserves, its blocks, the calls a paused run offers, and its summary.
 */
interface Recorded {
  name: string;
  status: EndStatusKind;
  rules: string[];
  /** Every block but the message summary and the pause: kind and content. */
  blocks: [kind: string, content: string][];
  /** The calls the paused run offers: name, id, parsed arguments. */
  offered?: [string, string, unknown][];
  /** The message summary. */
  message: Record<string, unknown>;
}

const RECORDED: readonly Recorded[] = [
  {
    // vLLM asked for a named function: reasoning, the call, then finish_reason stop (as OpenAI
    // finishes a call a named tool_choice forced): the run waits for the client to run it.
    name: 'svir-vllm-named-tool-stop',
    status: 'paused',
    rules: [],
    blocks: [
      ['thinking', "The user wants me to open locker 7. I'll use the open_locker function with the number 7.\n"],
      ['tool_call', '{"number": 7}'],
    ],
    offered: [['open_locker', 'chatcmpl-tool-92b83d16c7648d0e', { number: 7 }]],
    message: {
      model: 'qwen3.8-27b',
      status: 'completed',
      stop_reason: 'stop',
      usage: { input_tokens: 303, output_tokens: 53 },
    },
  },
  {
    // llama.cpp: reasoning, then its parser's error object after the HTTP 200, and no [DONE].
    name: 'svir-llama-cpp-error',
    status: 'error',
    rules: ['provider.api-error', 'block.unterminated'],
    blocks: [
      ['thinking', 'Open locker 7.\n\nWe need to open locker 7. Use open_locker tool.'],
      [
        'error',
        '{"code":500,"message":"The model produced output that does not match the expected peg-native format","type":"server_error"}',
      ],
    ],
    message: { status: 'failed' },
  },
  {
    // Azure OpenAI with the asynchronous content filter and a blocklist: the answer streamed with
    // the blocked word, the model finished with stop, then an annotation chunk marked the
    // blocklist filtered, with no finish_reason: the answer is cut short by the content filter.
    name: 'svir-azure-async-flagged',
    status: 'incomplete',
    rules: ['provider.response-incomplete'],
    blocks: [['text', Array.from({ length: 10 }, () => 'svirblocked').join(' ')]],
    message: {
      model: 'gpt-6-luna-2026-09-22',
      status: 'incomplete',
      stop_reason: 'stop',
      incomplete_details: { reason: 'content_filter', categories: ['custom_blocklists (svir)'] },
      usage: { input_tokens: 30, output_tokens: 101 },
    },
  },
];

const NOT_CONTENT = new Set(['message', 'awaiting_frontend_tools']);

describe('Chat Completions streams recorded by the svir conformance suite', () => {
  test.each(RECORDED)('$name: openai-chat, $status, its findings, blocks, calls and summary', (recorded) => {
    const { result, facts } = decodeRecorded(readExternalFixture(`openai-chat/${recorded.name}.sse`));
    expect(facts).toEqual({
      formats: ['openai-chat'],
      rules: recorded.rules,
      status: recorded.status,
      chunkingsThatDiffer: [],
    });
    expect(result.blocks.filter((b) => !NOT_CONTENT.has(b.kind)).map((b) => [b.kind, b.content])).toEqual(
      recorded.blocks,
    );
    expect(pauseOf(result)?.pendingTools?.map((t) => [t.name, t.toolUseId, t.input])).toEqual(recorded.offered);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject(recorded.message);
  });
});
