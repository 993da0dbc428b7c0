import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { providerFixturePath } from '../../src-main/testing/fixtures';
import { decodeLegs } from '../pipeline/session-decoder';
import { encodeUtf8 } from '../text/utf8';
import { diffSessions } from './diff';

/**
 * Two runs of one provider request, the same stream at another pace: their message blocks'
 * time to first token, duration and tokens per second differ, and are no difference.
 */
function run(gapMs: number) {
  const text = readFileSync(providerFixturePath('anthropic-messages/tool-use.sse'), 'utf8');
  const events = text.split(/(?<=\n\n)/);
  return decodeLegs([events.map((event, i) => ({ bytes: encodeUtf8(event), receivedAt: 1_000 + i * gapMs }))]);
}

describe('timing fields in a diff', () => {
  it('are never a difference: the message blocks are equal after normalising timing', () => {
    const slow = run(40);
    const fast = run(5);
    const message = (side: typeof slow) => side.blocks.find((b) => b.kind === 'message')!;
    expect(message(slow).content).not.toBe(message(fast).content);
    const diff = diffSessions(slow, fast);
    expect(diff.counts.differences).toBe(0);
    const row = diff.rows.find((r) => r.kind === 'message');
    expect(row).toMatchObject({ status: 'equal', normalisations: ['timing-fields'] });
  });

  it('must not: the rest of a message block still counts', () => {
    const left = run(10);
    const right = run(10);
    const message = right.blocks.find((b) => b.kind === 'message')!;
    message.content = message.content.replace('"tool_use"', '"end_turn"');
    const diff = diffSessions(left, right);
    expect(diff.rows.find((r) => r.kind === 'message')).toMatchObject({ status: 'changed' });
  });
});
