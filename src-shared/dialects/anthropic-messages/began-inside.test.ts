import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

const event = (type: string, fields: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const endOf = (result: DecodeResult) =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind;

describe('a capture that begins inside a message (no message_start)', () => {
  // As pasted in a bug report: the stream from its second block on.
  const tail = [
    event('content_block_start', {
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01K', name: 'searchCalendars', input: {} },
    }),
    event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
    event('content_block_stop', { index: 1 }),
    event('message_delta', {
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 529, output_tokens: 47 },
    }),
    event('message_stop', {}),
  ];

  it('is reported once, and its stop reason, usage and pause are read: the run awaits its tool', () => {
    const result = decodeBytes(encodeUtf8(tail.join('')));
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['provider.block-not-started']);
    expect(result.diagnostics[0]?.message).toMatch(/^content_block_start in event 0 comes before any message_start/);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'completed',
      stop_reason: 'tool_use',
      usage: { input_tokens: 529, output_tokens: 47 },
    });
    expect(endOf(result)).toBe('paused');
  });

  it('must not: a stream that starts with message_start, nor a ping before it', () => {
    const whole = decodeBytes(readProviderFixture('anthropic-messages/tool-use.sse'));
    expect(whole.diagnostics.map((d) => d.rule)).not.toContain('provider.block-not-started');
    const pinged = decodeBytes(
      encodeUtf8(event('ping', {}) + new TextDecoder().decode(readProviderFixture('anthropic-messages/tool-use.sse'))),
    );
    expect(pinged.diagnostics.map((d) => d.rule)).not.toContain('provider.block-not-started');
  });
});
