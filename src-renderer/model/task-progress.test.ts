import { describe, expect, it } from 'vitest';
import type { TaskProgress } from '../../src-shared/contract';
import { progressView } from './task-progress';

const base: TaskProgress = {
  sessionId: 's1',
  task: 'upload',
  total: 52_000_000,
  received: 13_000_000,
  decoded: 6_500_000,
  envelopes: 40_000,
  envelopesPerSecond: 41_250.4,
  bytesPerSecond: 3_100_000,
  elapsedMs: 800,
  done: false,
};

describe('the progress bar of a long task', () => {
  it('an upload fills to what arrived and, over it, to what is decoded, with bytes of each and the rates', () => {
    expect(progressView(base)).toEqual({
      title: 'Uploading and decoding',
      received: 0.25,
      decoded: 0.125,
      bytes: '13 MB of 52 MB uploaded · 6.5 MB decoded',
      rate: '41,250 envelopes/s · 3.1 MB/s',
    });
  });

  it('a file on disk has only what is decoded', () => {
    const view = progressView({ ...base, task: 'open', received: 52_000_000 });
    expect(view).toMatchObject({ title: 'Decoding', received: 0.125, decoded: 0.125 });
    expect(view.bytes).toBe('6.5 MB of 52 MB decoded');
  });

  it('an unknown size fills nothing and names no total', () => {
    const view = progressView({ ...base, task: 'open', total: 0 });
    expect(view).toMatchObject({ received: 0, decoded: 0, bytes: '6.5 MB decoded' });
  });

  it('an export of a known size fills to the bytes written', () => {
    const view = progressView({ ...base, task: 'export', total: 20_000_000, received: 5_000_000, decoded: 5_000_000 });
    expect(view).toMatchObject({ title: 'Exporting', received: 0.25, decoded: 0.25, bytes: '5.0 MB of 20 MB written' });
    expect(view.rate).toBe('41,250 envelopes/s · 3.1 MB/s');
  });

  it('an export whose size is not known yet fills to the envelopes written of the session', () => {
    const view = progressView({ ...base, task: 'export', total: 0, decoded: 5_000_000, envelopesTotal: 160_000 });
    expect(view).toMatchObject({
      received: 0.25,
      decoded: 0.25,
      bytes: '5.0 MB written · 40,000 of 160,000 envelopes',
    });
  });
});
