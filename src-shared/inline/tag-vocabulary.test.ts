import { describe, expect, it } from 'vitest';
import { inlineTagNames, markerStarts, vocabularyOf } from './tag-vocabulary';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from './types';

const withMode = (mode: InlineOptions['mode']): InlineOptions => ({ ...DEFAULT_INLINE_OPTIONS, mode });

describe('the tag vocabulary of a configuration', () => {
  it('names the segment tags and the configured tools only where XML tags are read', () => {
    expect(inlineTagNames(DEFAULT_INLINE_OPTIONS)).toEqual([
      'thinking',
      'think',
      'attempt_completion',
      'tool_result',
      'write_file',
      'run_bash',
      'tool',
      'search',
      'extract',
      'query',
    ]);
    expect(inlineTagNames(withMode('xml'))).toEqual(inlineTagNames(DEFAULT_INLINE_OPTIONS));
    expect(inlineTagNames(withMode('sentinel'))).toEqual([]);
    expect(inlineTagNames(withMode('json'))).toEqual([]);
  });

  it('says which characters can start a marker in text, per mode', () => {
    expect(markerStarts(DEFAULT_INLINE_OPTIONS)).toBe('<[');
    expect(markerStarts(withMode('xml'))).toBe('<');
    expect(markerStarts(withMode('sentinel'))).toBe('[');
  });

  it('checks a tag name being read by its prefixes, and is computed once per options object', () => {
    const vocabulary = vocabularyOf(DEFAULT_INLINE_OPTIONS);
    expect(vocabulary.topPrefixes.has('thin')).toBe(true);
    expect(vocabulary.topPrefixes.has('thinx')).toBe(false);
    expect(vocabulary.topExact.has('thin')).toBe(false);
    expect(vocabularyOf(DEFAULT_INLINE_OPTIONS)).toBe(vocabulary);
  });
});
