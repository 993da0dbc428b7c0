import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../../src-shared/contract';
import { harEntrySize, harStreamLabel, initialHarChoice, toggleHarChoice } from './har-entries';

const entry = (index: number, change: Partial<HarEntry> = {}): HarEntry => ({
  index,
  method: 'POST',
  url: `http://h/${index}`,
  status: 200,
  mimeType: 'text/event-stream',
  size: 100,
  isStream: true,
  hasBody: true,
  startedDateTime: '',
  ...change,
});

describe('choosing HAR entries', () => {
  it('ticks the first event stream with a body at first, and nothing when none is a stream', () => {
    const json = { isStream: false, mimeType: 'application/json' };
    expect(initialHarChoice([entry(0, json), entry(1, { hasBody: false }), entry(2), entry(3)])).toEqual([2]);
    expect(initialHarChoice([entry(0, json), entry(1, { hasBody: false })])).toEqual([1]);
    expect(initialHarChoice([entry(0, json)])).toEqual([]);
  });

  it('keeps the chosen entries in file order, the order of a run and its continuations', () => {
    expect(toggleHarChoice([3], 1, true)).toEqual([1, 3]);
    expect(toggleHarChoice([1, 3], 3, false)).toEqual([1]);
    expect(toggleHarChoice([1], 1, true)).toEqual([1]);
  });

  it('names the kind of stream an entry is by its type', () => {
    expect(harStreamLabel('text/event-stream; charset=utf-8')).toBe('event stream');
    expect(harStreamLabel('application/x-ndjson')).toBe('NDJSON stream');
    expect(harStreamLabel('application/jsonl')).toBe('NDJSON stream');
    // The AI SDK's v4 data stream: text/plain, announced by its header.
    expect(harStreamLabel('text/plain; charset=utf-8')).toBe('line stream');
  });

  it('says when the HAR kept no body or no size', () => {
    const bytes = (n: number) => `${n} B`;
    expect(harEntrySize({ size: 12, hasBody: true }, bytes)).toBe('12 B');
    expect(harEntrySize({ size: -1, hasBody: true }, bytes)).toBe('unknown');
    expect(harEntrySize({ size: 12, hasBody: false }, bytes)).toBe('not saved');
  });
});
