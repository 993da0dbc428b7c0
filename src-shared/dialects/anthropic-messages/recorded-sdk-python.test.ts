import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded } from '../../../src-main/testing/provider-streams';
import type { DecodeResult } from '../../pipeline/types';

/**
 * Anthropic Messages streams of the anthropic-sdk-python test suite
 * (resources/fixtures/external/anthropic, credited in its README), the API's own SSE byte for
 * byte: each is this dialect, the same at every chunking, with exactly its findings, end
 * status, blocks and message summary.
 */
const capture = (name: string) => decodeRecorded(readExternalFixture(`anthropic/sdk-python-${name}.sse`));
const blocksOf = (result: DecodeResult) =>
  result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.status, b.name, b.toolId, b.content]);
const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;

describe('recorded anthropic-sdk-python streams', () => {
  it('incomplete-partial-json: max_tokens inside a tool call keeps the call open, its input as sent', () => {
    const { result, facts } = capture('incomplete-partial-json');
    expect(facts).toEqual({
      formats: ['anthropic-messages'],
      // The open call is explained by the stop that cut it, not reported as a block never stopped.
      rules: [
        'provider.response-incomplete',
        'sse.unterminated-last-event',
        'block.unterminated',
        'tool.call-without-result',
      ],
      status: 'incomplete',
      chunkingsThatDiffer: [],
    });
    expect(blocksOf(result)).toEqual([
      [
        'text',
        'complete',
        undefined,
        undefined,
        "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
      ],
      [
        'tool_call',
        'open',
        'make_file',
        'toolu_01EKqbqmZrGRXy18eN7m9kvY',
        '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
      ],
    ]);
    expect(result.blocks[1]?.parsed).toBeUndefined();
    expect(summaryOf(result)).toMatchObject({ status: 'incomplete', stop_reason: 'max_tokens' });
  });

  it("container: the message's code-execution container (its id, to reuse it) is in its summary", () => {
    const { result, facts } = capture('container');
    expect(facts).toEqual({
      formats: ['anthropic-messages'],
      rules: ['sse.unterminated-last-event'],
      status: 'done',
      chunkingsThatDiffer: [],
    });
    expect(blocksOf(result)).toEqual([['text', 'complete', undefined, undefined, 'Running your code now.']]);
    expect(summaryOf(result)).toEqual({
      id: 'msg_01Gh8kQEinLbnrkVJ9BqrmyQ',
      model: 'claude-opus-4-8',
      status: 'completed',
      stop_reason: 'end_turn',
      usage: { input_tokens: 11, output_tokens: 6 },
      container: { id: 'container_011CPTa1PkYDZagcpQ8VZCcy', expires_at: '2026-07-23T16:16:14.426901Z' },
    });
  });

  it("input-transformations-delta: message_start's and message_delta's entries are in the summary, in order", () => {
    const { result, facts } = capture('input-transformations-delta');
    expect(facts).toEqual({ formats: ['anthropic-messages'], rules: [], status: 'done', chunkingsThatDiffer: [] });
    expect(blocksOf(result)).toEqual([['text', 'complete', undefined, undefined, 'Hello there!']]);
    expect(summaryOf(result)).toMatchObject({
      stop_reason: 'end_turn',
      input_transformations: [
        { type: 'thinking_dropped', path: 'messages.2.content.0', reason: 'prefix_binding_mismatch' },
        { type: 'thinking_dropped', path: 'messages.0.content.0', reason: 'model_binding_mismatch' },
      ],
    });
    // Must not: a message that ran in no container (none given) names none.
    expect(summaryOf(result)).not.toHaveProperty('container');
  });
});
