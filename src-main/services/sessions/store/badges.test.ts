import { describe, expect, it } from 'vitest';
import { Badges, frameBadgeKey, frameOfBadgeKey } from './badges';

describe('Badges', () => {
  it('counts findings per key and keeps the worst severity, whatever the order', () => {
    const badges = new Badges();
    badges.add(7, 'info');
    badges.add(7, 'error');
    badges.add(7, 'warning');
    badges.add(9, 'warning');
    expect(badges.get(7)).toEqual({ count: 3, severity: 'error' });
    expect(badges.get(9)).toEqual({ count: 1, severity: 'warning' });
    expect(badges.get(8)).toBeUndefined();
    badges.clear();
    expect([...badges.keys()]).toEqual([]);
  });

  it('numbers a frame of any leg by one key and gives the leg and frame back', () => {
    for (const [leg, frame] of [[0, 0], [3, 4_000_000_000], [1_000, 17]] as const) {
      expect(frameOfBadgeKey(frameBadgeKey(leg, frame))).toEqual({ leg, frame });
    }
  });
});
