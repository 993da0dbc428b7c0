import { describe, expect, it } from 'vitest';
import type { ReplayState } from '../../../../src-shared/contract/payloads';
import { createManualClock } from '../../replay/manual-clock';
import { REPLAY_STATE_INTERVAL_MS, ReplayAnnouncer } from './replay-announcer';

const stateAt = (position: number, playing = true): ReplayState => ({
  sessionId: 's',
  source: 'o',
  playing,
  speed: 1,
  instant: false,
  position,
  total: 100,
  finished: false,
  breakpoints: [],
  loop: false,
  loops: 0,
  types: [],
});

describe('ReplayAnnouncer', () => {
  it('announces a change at once and never the same state twice in a row', () => {
    let current = stateAt(0);
    const announced: ReplayState[] = [];
    const announcer = new ReplayAnnouncer(
      createManualClock(),
      () => current,
      (s) => announced.push(s),
    );
    announcer.now();
    announcer.now();
    current = stateAt(0, false);
    announcer.now();
    expect(announced.map((s) => s.playing)).toEqual([true, false]);
  });

  it('announces the moving position at most once per interval, the latest one, and nothing once disposed', async () => {
    const clock = createManualClock();
    let current = stateAt(0);
    const announced: number[] = [];
    const announcer = new ReplayAnnouncer(
      clock,
      () => current,
      (s) => announced.push(s.position),
    );
    announcer.now();
    for (const position of [1, 2, 3]) {
      current = stateAt(position);
      announcer.position(position);
    }
    expect(announced).toEqual([0]);
    await clock.advance(REPLAY_STATE_INTERVAL_MS);
    expect(announced).toEqual([0, 3]);
    current = stateAt(4);
    announcer.position(4);
    announcer.dispose();
    await clock.advance(REPLAY_STATE_INTERVAL_MS);
    announcer.now();
    expect(announced).toEqual([0, 3]);
  });
});
