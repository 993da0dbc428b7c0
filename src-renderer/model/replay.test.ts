import { describe, expect, test } from 'vitest';
import type { SessionSummary } from '../../src-shared/contract';
import {
  breakpointTypes,
  FAST,
  hitLabel,
  MAX_SPEED,
  MIN_SPEED,
  SPEEDS,
  progressFraction,
  replayKeyAction,
  progressLabel,
  replayOffer,
  seekAction,
  speedAction,
  speedChoices,
  speedIndex,
  speedLabel,
  stepSpeed,
} from './replay';

describe('speeds', () => {
  test('the ladder runs ×0.25 … ×20, then fast', () => {
    expect(speedChoices().map(speedLabel)).toEqual(['×0.25', '×0.5', '×1', '×2', '×4', '×10', '×20', 'fast']);
  });

  test('a source without receive times shows the ladder as events per second', () => {
    expect(speedChoices().map((choice) => speedLabel({ ...choice, pace: 10 }))).toEqual([
      '2.5 ev/s',
      '5 ev/s',
      '10 ev/s',
      '20 ev/s',
      '40 ev/s',
      '100 ev/s',
      '200 ev/s',
      'fast',
    ]);
  });

  test('the ends of the ladder are the contract limits', () => {
    expect([SPEEDS[0], SPEEDS.at(-1)]).toEqual([MIN_SPEED, MAX_SPEED]);
  });

  test('stepping clamps at both ends', () => {
    expect(stepSpeed({ speed: 4, instant: false }, 1)).toEqual({ speed: 10, instant: false });
    expect(stepSpeed({ speed: 20, instant: false }, 1)).toEqual(FAST);
    expect(stepSpeed(FAST, 1)).toEqual(FAST);
    expect(stepSpeed(FAST, -1)).toEqual({ speed: 20, instant: false });
    expect(stepSpeed({ speed: 0.25, instant: false }, -1)).toEqual({ speed: 0.25, instant: false });
  });

  test('a speed set elsewhere lands on the nearest rung', () => {
    expect(speedIndex({ speed: 1.2, instant: false })).toBe(2);
    expect(speedIndex({ speed: 3, instant: false })).toBe(4);
    expect(speedIndex({ speed: 5, instant: false })).toBe(4);
    expect(speedIndex({ speed: 15, instant: false })).toBe(6);
  });

  test('speedAction says instant only for fast', () => {
    expect(speedAction({ speed: 4, instant: false })).toEqual({ kind: 'speed', speed: 4 });
    expect(speedAction(FAST)).toEqual({ kind: 'speed', speed: 20, instant: true });
  });
});

describe('seek and progress', () => {
  test('delivering n envelopes seeks to envelope n − 1; 0 is not a seek', () => {
    expect(seekAction(10, 100)).toEqual({ kind: 'seek', envelope: 9 });
    expect(seekAction(1, 100)).toEqual({ kind: 'seek', envelope: 0 });
    expect(seekAction(0, 100)).toBeNull();
    expect(seekAction(500, 100)).toEqual({ kind: 'seek', envelope: 99 });
    expect(seekAction(3.6, 100)).toEqual({ kind: 'seek', envelope: 3 });
  });

  test('progress', () => {
    expect(progressLabel({ position: 12, total: 40 })).toBe('12 / 40');
    expect(progressFraction({ position: 10, total: 40 })).toBe(0.25);
    expect(progressFraction({ position: 0, total: 0 })).toBe(0);
  });
});

describe('replayOffer', () => {
  const base: Pick<SessionSummary, 'source' | 'state' | 'envelopes' | 'bytes'> = {
    source: { kind: 'file', path: '/x.sse', importer: 'sse' },
    state: 'complete',
    envelopes: 10,
    bytes: 100,
  };
  test.each([
    [base, 'start'],
    [
      { ...base, source: { kind: 'live' as const, method: 'POST', url: 'http://x' }, state: 'stopped' as const },
      'start',
    ],
    [{ ...base, state: 'failed' as const }, 'start'],
    [
      { ...base, source: { kind: 'live' as const, method: 'POST', url: 'http://x' }, state: 'streaming' as const },
      'none',
    ],
    [{ ...base, bytes: 0 }, 'none'],
    [{ ...base, source: { kind: 'replay' as const, of: 's1' } }, 'controls'],
  ])('%j → %s', (summary, kind) => {
    expect(replayOffer(summary).kind).toBe(kind);
  });
});

test('replayKeyAction: single keys without modifiers', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...mods,
  });
  expect(['k', '.', '<', '>', 'x'].map((k) => replayKeyAction(key(k)))).toEqual([
    'toggle',
    'step',
    'slower',
    'faster',
    null,
  ]);
  expect(replayKeyAction(key('k', { ctrlKey: true }))).toBeNull();
});

describe('breakpoint chooser', () => {
  test('offers the frontend-tools prompt first, then the source types once each', () => {
    expect(breakpointTypes(['meta_init', 'text', 'awaiting_frontend_tools'])).toEqual([
      'awaiting_frontend_tools',
      'meta_init',
      'text',
    ]);
    expect(breakpointTypes([])).toEqual(['awaiting_frontend_tools']);
  });

  test('says what the replay paused at, with the agent named and the finding explained', () => {
    expect(hitLabel({ breakpoint: { kind: 'type', type: 'tool_call' }, envelope: 12 }, () => '?')).toBe(
      'type tool_call at envelope #12',
    );
    expect(
      hitLabel({ breakpoint: { kind: 'agent', agent: 'u-1' }, envelope: 3 }, (u) => (u === 'u-1' ? 'sub 1' : u)),
    ).toBe('agent sub 1 at envelope #3');
    expect(
      hitLabel(
        { breakpoint: { kind: 'error' }, envelope: 1, rule: 'json.invalid', message: 'Event 1 is not valid JSON' },
        () => '?',
      ),
    ).toBe('error finding json.invalid at envelope #1: Event 1 is not valid JSON');
  });
});
