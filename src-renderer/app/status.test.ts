import { describe, expect, it } from 'vitest';
import type { LiveStatus } from '../../src-shared/contract';
import { summary } from '../testing/fake-service';
import { statusFields } from './status';

const live = (change: Partial<LiveStatus> = {}): LiveStatus => ({
  sessionId: 's1',
  state: 'streaming',
  leg: 0,
  httpStatus: 200,
  bytes: 12_000,
  envelopes: 340,
  elapsedMs: 4200,
  envelopesPerSecond: 85,
  bytesPerSecond: 3000,
  idleMs: 0,
  ...change,
});

describe('status line', () => {
  it('shows status, bytes, envelopes, elapsed and rate while live', () => {
    expect(statusFields(summary('s1'), live(), 0)).toEqual({
      http: 'HTTP 200',
      bytes: '12 kB',
      envelopes: '340 envelopes',
      elapsed: '4.2 s',
      rate: '85/s · 3.0 kB/s',
      idle: null,
    });
  });

  it('counts elapsed and idle time on between status events, and shows idle only when notable', () => {
    const fields = statusFields(summary('s1'), live({ idleMs: 1500 }), 1000);
    expect(fields.elapsed).toBe('5.2 s');
    expect(fields.idle).toBe('idle 2.5 s');
    expect(statusFields(summary('s1'), live({ idleMs: 100 }), 0).idle).toBeNull();
  });

  it('freezes at the end: no rate, no idle, the summary totals', () => {
    const done = statusFields(
      summary('s1', { state: 'complete', envelopes: 400, bytes: 15_000, httpStatus: 200 }),
      live({ state: 'complete', idleMs: 9000 }),
      5000,
    );
    expect(done).toMatchObject({
      http: 'HTTP 200',
      envelopes: '400 envelopes',
      bytes: '15 kB',
      elapsed: '4.2 s',
      rate: null,
      idle: null,
    });
  });

  it('counts the rows the batches brought when they are ahead of the summary (a file loading)', () => {
    const loading = summary('s1', { state: 'loading', envelopes: 34_957 });
    expect(statusFields(loading, null, 0, 50_653).envelopes).toBe('50,653 envelopes');
    expect(statusFields(loading, null, 0, 100).envelopes).toBe('34,957 envelopes');
  });

  it('shows what the summary knows for a file with no live status', () => {
    expect(statusFields(summary('s1', { state: 'complete', envelopes: 3, bytes: 99 }), null, 0)).toEqual({
      http: null,
      bytes: '99 B',
      envelopes: '3 envelopes',
      elapsed: null,
      rate: null,
      idle: null,
    });
  });

  it('regression: counts one envelope in the singular', () => {
    expect(statusFields(summary('s1', { state: 'complete', envelopes: 1, bytes: 99 }), null, 0).envelopes).toBe(
      '1 envelope',
    );
  });
});
