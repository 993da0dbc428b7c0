import { describe, expect, it } from 'vitest';
import {
  formatFact,
  formatBytes,
  formatCompact,
  formatCount,
  formatCountOf,
  formatCountShort,
  formatDuration,
  formatGap,
  formatOffset,
  formatRate,
  sessionOptionLabel,
  sessionOptionLabels,
  clockTime,
} from './format';

describe('formatting', () => {
  it.each([
    [0, 'envelope', undefined, '0 envelopes'],
    [1, 'envelope', undefined, '1 envelope'],
    [2, 'envelope', undefined, '2 envelopes'],
    [1234, 'envelope', undefined, '1,234 envelopes'],
    [1, 'entry', 'entries', '1 entry'],
    [3, 'entry', 'entries', '3 entries'],
  ])('regression "1 envelopes": %d %s → %s', (n, singular, plural, text) =>
    expect(formatCountOf(n, singular, plural)).toBe(text),
  );

  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [1530, '1.5 kB'],
    [12_345, '12 kB'],
    [3_400_000, '3.4 MB'],
    [2_000_000_000, '2.0 GB'],
  ])('bytes %d → %s', (n, text) => expect(formatBytes(n)).toBe(text));

  it.each([
    [0, '0.000'],
    [1234.4, '1.234'],
    [62_345, '1:02.345'],
    [3_723_456, '1:02:03.456'],
    [-1500, '-1.500'],
  ])('offset %d → %s', (ms, text) => expect(formatOffset(ms)).toBe(text));

  it.each([
    [0, '+0'],
    [0.42, '+0.4 ms'],
    [12.4, '+12 ms'],
    [1250, '+1.25 s'],
    [125_000, '+2 m 05 s'],
  ])('gap %d → %s', (ms, text) => expect(formatGap(ms)).toBe(text));

  it.each([
    [850, '850 ms'],
    [3200, '3.2 s'],
    [42_000, '42 s'],
    [3_720_000, '1 h 02 m'],
  ])('duration %d → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));

  it.each([
    [0, '0/s'],
    [850.4, '850/s'],
    [1234, '1.2k/s'],
    [12_345, '12k/s'],
    [2_500_000, '2.5M/s'],
  ])('rate %d → %s', (n, text) => expect(formatRate(n)).toBe(text));

  it.each([
    [0, '0'],
    [45_000, '45k'],
    [180_000, '180k'],
    [2_500_000, '2.5M'],
  ])('a count on a narrow axis %d → %s', (n, text) => expect(formatCompact(n)).toBe(text));

  it.each([
    [141, '141'],
    [54_321, '54,321'],
    [99_999, '99,999'],
    [100_000, '100k'],
    [2_000_155, '2.0M'],
  ])('a count in a sidebar line %d → %s: exact up to five digits', (n, text) => expect(formatCountShort(n)).toBe(text));

  it('separates thousands without the machine locale', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999)).toBe('999');
  });
});

describe('sessionOptionLabel', () => {
  it("names the format once: a demo run's title already ends with it", () => {
    expect(sessionOptionLabel({ title: 'Demo agent: Citations · json', format: 'json', envelopes: 42 })).toBe(
      'Demo agent: Citations · json · 42 env',
    );
  });

  it('adds the format to other titles, and a question mark while it is unknown', () => {
    expect(sessionOptionLabel({ title: 'run.sse', format: 'xml', envelopes: 7 })).toBe('run.sse · xml · 7 env');
    expect(sessionOptionLabel({ title: 'POST http://x/agent/run', format: null, envelopes: 0 })).toBe(
      'POST http://x/agent/run · ? · 0 env',
    );
  });
});

describe('sessionOptionLabels', () => {
  const at = new Date(2026, 0, 2, 9, 5, 7).getTime();
  const file = (id: string, path: string, createdAt = at) => ({
    id,
    title: 'cut.sse',
    format: 'ag-ui' as const,
    envelopes: 4,
    source: { kind: 'file' as const, path, importer: 'sse' },
    createdAt,
  });

  it('leaves labels that differ as sessionOptionLabel says them', () => {
    const labels = sessionOptionLabels([file('a', '/x/cut.sse'), { ...file('b', '/x/other.sse'), title: 'other.sse' }]);
    expect([...labels.values()]).toEqual(['cut.sse · ag-ui · 4 env', 'other.sse · ag-ui · 4 env']);
  });

  it('tells two files of one name apart by their folder', () => {
    const labels = sessionOptionLabels([file('a', '/f/ag-ui/cut.sse'), file('b', 'C:\\f\\anthropic\\cut.sse')]);
    expect([...labels.values()]).toEqual([
      'cut.sse · ag-ui · 4 env · in ag-ui',
      'cut.sse · ag-ui · 4 env · in anthropic',
    ]);
  });

  it('tells one file opened twice apart by when it was opened, else by its place in the list', () => {
    const twice = sessionOptionLabels([file('a', '/f/cut.sse'), file('b', '/f/cut.sse', at + 61_000)]);
    expect([...twice.values()]).toEqual([
      'cut.sse · ag-ui · 4 env · opened 09:05:07',
      'cut.sse · ag-ui · 4 env · opened 09:06:08',
    ]);
    const sameSecond = sessionOptionLabels([file('a', '/f/cut.sse'), file('b', '/f/cut.sse'), file('c', '/f/cut.sse')]);
    expect([...sameSecond.values()]).toEqual([
      'cut.sse · ag-ui · 4 env · #1',
      'cut.sse · ag-ui · 4 env · #2',
      'cut.sse · ag-ui · 4 env · #3',
    ]);
    expect(new Set(sameSecond.keys())).toEqual(new Set(['a', 'b', 'c']));
  });

  it('reads the clock as hours, minutes and seconds', () => {
    expect(clockTime(at)).toBe('09:05:07');
  });
});

describe('formatFact', () => {
  it('rounds durations, rates and fractions of a summary for display; integers and non-finite values stay as they are', () => {
    expect(formatFact('time_to_first_token_ms', 60.917724609375)).toBe('61 ms');
    expect(formatFact('duration_ms', 3250.4)).toBe('3.25 s');
    expect(formatFact('output_tokens_per_second', 42.4871)).toBe('42.5/s');
    expect(formatFact('output_tokens_per_second', 1234.56)).toBe('1235/s');
    expect(formatFact('cost', 0.0123456)).toBe('0.0123');
    expect(formatFact('total_steps', 7)).toBe('7');
    expect(formatFact('cost', Number.NaN)).toBe('NaN');
  });
});
