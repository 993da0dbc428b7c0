import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

const cutShort = (result: DecodeResult) =>
  result.diagnostics.find((d) => d.rule === 'provider.response-incomplete')?.message ?? '';
const endReason = (result: DecodeResult) =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).reason;

describe('a stop that cuts the output short', () => {
  it('a refusal before any output says so, with what its stop_details explain', () => {
    const result = decodeBytes(readExternalFixture('anthropic/anthropic-refusal.data-only.sse'));
    expect(cutShort(result)).toBe(
      'message_delta in event 2 stops the message with stop_reason "refusal": the streaming safety classifiers stopped it before any output (cyber: This request triggered restrictions on violative cyber content and was blocked under Anthropic\'s Usage Policy.).',
    );
    expect(endReason(result)).toContain('stop_reason "refusal" (the streaming safety classifiers, before any output)');
    // Its stop_details (but their type) are the incomplete details: why, and what to do.
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'incomplete',
      incomplete_details: {
        reason: 'refusal',
        category: 'cyber',
        explanation: expect.stringContaining('violative cyber content') as unknown,
        recommended_model: 'claude-fable-5',
      },
    });
  });

  it('must not: max_tokens after output cuts it short, and no stop_details is no clause', () => {
    const result = decodeBytes(readProviderFixture('anthropic-messages/max-tokens.sse'));
    expect(cutShort(result)).toMatch(/: the max_tokens limit cut its output short\.$/);
    expect(endReason(result)).not.toContain('before any output');
  });
});

describe('a stop sequence', () => {
  const stream = (delta: Record<string, unknown>) =>
    decodeBytes(
      encodeUtf8(
        [
          { type: 'message_start', message: { id: 'msg_1', model: 'claude-sonnet-4-5', usage: { input_tokens: 5 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The sky' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta, usage: { output_tokens: 3 } },
          { type: 'message_stop' },
        ]
          .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
          .join(''),
      ),
    ).blocks.find((b) => b.kind === 'message')?.parsed;

  it('that ended the output is in the summary beside its stop reason', () => {
    expect(stream({ stop_reason: 'stop_sequence', stop_sequence: 'is' })).toMatchObject({
      status: 'completed',
      stop_reason: 'stop_sequence',
      stop_sequence: 'is',
    });
  });

  it('must not: a stop without one (stop_sequence null) names none', () => {
    expect(stream({ stop_reason: 'end_turn', stop_sequence: null })).not.toHaveProperty('stop_sequence');
  });
});
