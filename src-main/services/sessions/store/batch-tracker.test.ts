import { describe, expect, it } from 'vitest';
import { BatchTracker, type BatchMarks } from './batch-tracker';

const marks = (rows: number, more: Partial<BatchMarks> = {}): BatchMarks => ({
  rows,
  blockRevision: 0,
  diagnostics: 0,
  diagnosticResets: 0,
  ...more,
});

describe('BatchTracker', () => {
  it('hands out new rows at most maxRows at a time, then nothing is pending', () => {
    const tracker = new BatchTracker();
    expect(tracker.pending(marks(0))).toBe(false);
    expect(tracker.pending(marks(5))).toBe(true);
    expect(tracker.take(marks(5), 3, 10)).toEqual({ start: 0, end: 3, changed: [], agents: [] });
    expect(tracker.pending(marks(5))).toBe(true);
    expect(tracker.take(marks(5), 3, 10)).toEqual({ start: 3, end: 5, changed: [], agents: [] });
    expect(tracker.pending(marks(5))).toBe(false);
  });

  it('carries a changed row again only once it was sent, lowest first, at most maxChanges per batch', () => {
    const tracker = new BatchTracker();
    tracker.touchRow(2); // not sent yet: its first batch carries it anyway
    expect(tracker.take(marks(10), 10, 2).changed).toEqual([]);
    for (const seq of [9, 1, 4, 7]) tracker.touchRow(seq);
    expect(tracker.pending(marks(10))).toBe(true);
    expect(tracker.take(marks(10), 10, 2).changed).toEqual([1, 4]);
    expect(tracker.take(marks(10), 10, 2).changed).toEqual([7, 9]);
    expect(tracker.pending(marks(10))).toBe(false);
  });

  it('is pending when agents, the blocks revision, the findings or their resets moved on since the last batch', () => {
    const tracker = new BatchTracker();
    tracker.take(marks(0), 10, 10);
    tracker.touchAgent('a');
    expect(tracker.take(marks(0), 10, 10).agents).toEqual(['a']);
    for (const moved of [{ blockRevision: 1 }, { diagnostics: 1 }, { diagnosticResets: 1 }]) {
      expect(tracker.pending(marks(0, moved))).toBe(true);
      tracker.take(marks(0, moved), 10, 10);
      expect(tracker.pending(marks(0, moved))).toBe(false);
      tracker.take(marks(0), 10, 10);
    }
  });
});
