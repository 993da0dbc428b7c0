import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src-shared/dialects/registry';
import { decodesAgain, FORMAT_CHOICES } from './format-choices';

describe('"Decode as"', () => {
  it('offers detection first, then every dialect by its label', () => {
    expect(FORMAT_CHOICES[0]).toEqual({ value: 'auto', label: 'Detect' });
    expect(FORMAT_CHOICES.slice(1).map((c) => c.value)).toEqual(DIALECTS.map((d) => d.id));
  });

  it('decodes a file again, once its HAR entries are chosen; never a live run or a replay', () => {
    const file = { kind: 'file', path: '/tmp/run.sse', importer: 'sse' } as const;
    expect(decodesAgain({ source: file })).toBe(true);
    expect(decodesAgain({ source: file, choosingHarEntries: true })).toBe(false);
    expect(decodesAgain({ source: { kind: 'live', method: 'POST', url: 'http://h/agent/run' } })).toBe(false);
    expect(decodesAgain({ source: { kind: 'replay', of: 's1' } })).toBe(false);
  });
});
