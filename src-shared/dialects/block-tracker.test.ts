import { describe, expect, it } from 'vitest';
import { createBlockTracker, type StartedBlock } from './block-tracker';

interface Block extends StartedBlock {
  type: string;
}

const block = (frame: number, type = 'text'): Block => ({ frame, at: { frame }, type });

function tracker() {
  const notStopped: [number, number, string][] = [];
  const t = createBlockTracker<number, Block>((key, b, why) => notStopped.push([key, b.frame, why]));
  return { t, notStopped };
}

describe('createBlockTracker', () => {
  it('tells open, stopped and never-started keys apart', () => {
    const { t } = tracker();
    expect(t.state(0)).toBe('unknown');
    t.start(0, block(1));
    expect([t.state(0), t.get(0)?.frame]).toEqual(['open', 1]);
    expect(t.stop(0)?.frame).toBe(1);
    expect([t.state(0), t.get(0), t.stop(0)]).toEqual(['stopped', undefined, undefined]);
  });

  it('returns the block a second start replaces', () => {
    const { t } = tracker();
    t.start(0, block(1));
    expect(t.start(0, block(2))?.frame).toBe(1);
    expect(t.get(0)?.frame).toBe(2);
  });

  it('reports every block left open when the message ends, then forgets the message', () => {
    const { t, notStopped } = tracker();
    t.start(0, block(1));
    t.start(1, block(2));
    t.stop(0);
    t.endMessage('before message_stop');
    expect(notStopped).toEqual([[1, 2, 'before message_stop']]);
    expect([t.state(0), t.state(1)]).toEqual(['unknown', 'unknown']);
  });

  it('counts a key once however often it starts, and a stopped key that starts again is open', () => {
    const { t } = tracker();
    t.start(0, block(1));
    t.start(0, block(2));
    t.start(1, block(3));
    t.stop(0);
    expect(t.anyOpen()).toBe(true);
    t.stop(1);
    expect(t.anyOpen()).toBe(false);
    t.start(0, block(4));
    expect([t.state(0), t.get(0)?.frame, t.anyOpen()]).toEqual(['open', 4, true]);
    expect(t.stop(0)?.frame).toBe(4);
    expect(t.anyOpen()).toBe(false);
  });

  it('discards a message without a report when its end explains the open blocks', () => {
    const { t, notStopped } = tracker();
    t.start(0, block(1));
    t.discardMessage();
    expect(notStopped).toEqual([]);
    expect(t.state(0)).toBe('unknown');
  });
});
