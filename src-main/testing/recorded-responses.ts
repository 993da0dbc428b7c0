import { expect } from 'vitest';
import type { EndStatusKind } from '../../src-shared/pipeline/end-status';
import type { DecodeResult } from '../../src-shared/pipeline/types';
import { readExternalFixture } from './fixtures';
import { decodeRecorded } from './provider-streams';

/**
 * What a Responses stream recorded by another project must decode to, checked the same way for
 * every suite's captures (src-shared/dialects/openai-responses/recorded.test.ts: vercel/ai's;
 * recorded-pydantic-ai.test.ts beside it).
 */
export interface RecordedResponses {
  /** Its file in its folder of resources/fixtures/external. */
  name: string;
  status: EndStatusKind;
  rules: string[];
  /** The kinds of its blocks but the `message` summaries, in order. */
  kinds: string[];
  /** What each response's `message` summary says, in order. */
  summaries: Record<string, unknown>[];
}

/** The summary of a response that completed, with its model and token counts. */
export const completedSummary = (model: string, input_tokens: number, output_tokens: number) => ({
  model,
  status: 'completed',
  stop_reason: 'completed',
  usage: { input_tokens, output_tokens },
});

export const blocksOf = (result: DecodeResult, kind: string) => result.blocks.filter((b) => b.kind === kind);

/**
 * Decodes `folder/name` as a user opens it and checks that it is this dialect, the same at every
 * chunking, with exactly its findings, end status, blocks and summaries; returns what it decoded to.
 */
export function expectRecorded(folder: string, recorded: RecordedResponses): DecodeResult {
  const { result, facts } = decodeRecorded(readExternalFixture(`${folder}/${recorded.name}`));
  expect(facts).toEqual({
    formats: ['openai-responses'],
    rules: recorded.rules,
    status: recorded.status,
    chunkingsThatDiffer: [],
  });
  expect(result.blocks.filter((b) => b.kind !== 'message').map((b) => b.kind)).toEqual(recorded.kinds);
  const summaries = blocksOf(result, 'message').map((b) => b.parsed);
  expect(summaries).toHaveLength(recorded.summaries.length);
  recorded.summaries.forEach((summary, i) => expect(summaries[i]).toMatchObject(summary));
  return result;
}
