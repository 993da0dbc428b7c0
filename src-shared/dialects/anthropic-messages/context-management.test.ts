import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeProviderEvents, providerEvent } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';

/**
 * The context edits the API applied to a request with `context_management` (tool uses or
 * thinking it cleared): message_delta reports them beside its delta, and the message's summary
 * keeps them, as it keeps the input transformations.
 */
const summaryOf = (delta: Record<string, unknown>) =>
  decodeProviderEvents([
    providerEvent('message_start', {
      message: { id: 'msg_1', model: 'claude-sonnet-4-5', usage: { input_tokens: 5 } },
    }),
    providerEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    providerEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Done.' } }),
    providerEvent('content_block_stop', { index: 0 }),
    providerEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, ...delta }),
    providerEvent('message_stop'),
  ]).blocks.find((b) => b.kind === 'message')?.parsed;

describe("an Anthropic message's context management", () => {
  it('the edits message_delta says were applied are in the summary, as the API gave them', () => {
    const context_management = {
      applied_edits: [
        { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 900 },
        { type: 'clear_thinking_20251015', cleared_thinking_turns: 1, cleared_input_tokens: 120 },
      ],
    };
    expect(summaryOf({ usage: { output_tokens: 2 }, context_management })).toMatchObject({
      status: 'completed',
      context_management,
    });
  });

  it('must not: no edit applied (the recorded stream of a request with context management) keeps nothing', () => {
    expect(summaryOf({ usage: { output_tokens: 2 }, context_management: { applied_edits: [] } })).not.toHaveProperty(
      'context_management',
    );
    const recorded = decodeBytes(readExternalFixture('anthropic/anthropic-clear-thinking.data-only.sse'));
    expect(recorded.blocks.find((b) => b.kind === 'message')?.parsed).not.toHaveProperty('context_management');
  });
});
