import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src-shared/dialects/registry';
import { decodesAgain, FORMAT_CHOICES } from './format-choices';

describe('"Decode as"', () => {
  it('offers detection first, then every dialect by its label', () => {
    expect(FORMAT_CHOICES[0]).toEqual({ value: 'auto', label: 'Detect' });
    expect(FORMAT_CHOICES.slice(1).map((c) => c.value)).toEqual(DIALECTS.map((d) => d.id));
  });

  it('decodes a file again once its HAR entries are chosen, and a live run once it ended waiting for nothing', () => {
    const file = {
      source: { kind: 'file', path: '/tmp/run.sse', importer: 'sse' },
      state: 'complete',
      awaitingTools: false,
    } as const;
    const live = {
      source: { kind: 'live', method: 'POST', url: 'http://h/agent/run' },
      state: 'complete',
      awaitingTools: false,
    } as const;
    expect(decodesAgain(file)).toBe(true);
    expect(decodesAgain({ ...file, choosingHarEntries: true })).toBe(false);
    expect(decodesAgain(live)).toBe(true);
    expect(decodesAgain({ ...live, state: 'failed' })).toBe(true);
    expect(decodesAgain({ ...live, state: 'streaming' })).toBe(false);
    expect(decodesAgain({ ...live, state: 'connecting' })).toBe(false);
    expect(decodesAgain({ ...live, awaitingTools: true })).toBe(false);
    expect(decodesAgain({ source: { kind: 'replay', of: 's1' }, state: 'complete', awaitingTools: false })).toBe(false);
  });
});
