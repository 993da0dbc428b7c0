import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded } from '../../../src-main/testing/provider-streams';

/**
 * Claude on Vertex AI (`streamRawPredict`), recorded by Mirascope's end-to-end suite
 * (resources/fixtures/external/mirascope, credited in resources/fixtures/external/README.md):
 * the Messages API's own SSE, a `msg_vrtx_` message that `max_tokens` cuts short.
 */
describe("a recorded Anthropic Messages stream of Mirascope's suite", () => {
  it('Vertex AI: anthropic-messages at every chunking, incomplete at max_tokens, its text whole', () => {
    const bytes = readExternalFixture('mirascope/anthropic-vertex-max-tokens.sse');
    const { result, facts } = decodeRecorded(bytes);
    expect(facts).toEqual({
      formats: ['anthropic-messages'],
      rules: ['provider.response-incomplete'],
      status: 'incomplete',
      chunkingsThatDiffer: [],
    });
    const deltas = new TextDecoder()
      .decode(bytes)
      .split('\n')
      .filter((line) => line.startsWith('data: {"type":"content_block_delta"'))
      .map((line) => (JSON.parse(line.slice('data: '.length)) as { delta: { text: string } }).delta.text);
    expect(result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content])).toEqual([
      ['text', deltas.join('')],
    ]);
    expect(result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed)).toMatchObject([
      {
        id: 'msg_vrtx_01WVNWqbAUv1CRae6upWbjVy',
        model: 'claude-haiku-4-5-20251001',
        status: 'incomplete',
        stop_reason: 'max_tokens',
        usage: { input_tokens: 15, output_tokens: 50 },
      },
    ]);
  });
});
