import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import {
  blocksOf,
  completedSummary,
  expectRecorded,
  type RecordedResponses,
} from '../../../src-main/testing/recorded-responses';
import { decodeBytes } from '../../pipeline/session-decoder';

/**
 * Responses API streams recorded by Mirascope's end-to-end suite (resources/fixtures/external/
 * mirascope, credited in resources/fixtures/external/README.md): OpenAI's API refusing a
 * structured output, and Azure OpenAI's content filter ending a response incomplete. Each is this
 * dialect at every chunking, ends as its stream says, with exactly the findings it deserves.
 */
const RECORDED: readonly RecordedResponses[] = [
  {
    // The refusal streams as `response.refusal.delta` into a refusal part: the response completed.
    name: 'openai-responses-refusal.sse',
    status: 'done',
    rules: [],
    kinds: ['refusal'],
    summaries: [completedSummary('gpt-4o-2024-08-06', 54, 11)],
  },
  {
    // Azure: the message item is `incomplete` from its added event on; the response ends
    // `response.incomplete` for its content filter, with zero tokens counted.
    name: 'azure-responses-content-filter.sse',
    status: 'incomplete',
    rules: ['provider.response-incomplete'],
    kinds: ['text'],
    summaries: [
      {
        model: 'gpt-4o-mini',
        status: 'incomplete',
        stop_reason: 'content_filter',
        incomplete_details: { reason: 'content_filter' },
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    ],
  },
];

const decode = (name: string) => decodeBytes(readExternalFixture(`mirascope/${name}`));

describe("recorded OpenAI Responses streams of Mirascope's suite", () => {
  test.each(RECORDED)(
    '$name: openai-responses, $status, exactly its findings, its blocks and summaries, the same at every chunking',
    (recorded) => {
      expectRecorded('mirascope', recorded);
    },
  );

  it('the refusal is the whole refused text, in one refusal block', () => {
    expect(blocksOf(decode('openai-responses-refusal.sse'), 'refusal').map((b) => b.content)).toEqual([
      "I'm sorry, I can't assist with that.",
    ]);
  });

  it('the content filter: the text kept as it came, the finding names the reason', () => {
    const result = decode('azure-responses-content-filter.sse');
    expect(blocksOf(result, 'text').map((b) => b.content)).toEqual([
      "I'm sorry, but I cannot assist with that request.",
    ]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'The response ended incomplete: content_filter; its output is cut short.',
    ]);
  });
});
