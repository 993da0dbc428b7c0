import { describe, expect, it } from 'vitest';
import {
  isCompleteElement,
  isServerToolId,
  rawAttribute,
  streamedTag,
  trailingVocabularyCloseTag,
  unknownBlockTag,
} from './item-shape';
import { tagNameAt } from './markup';

describe('streamedTag', () => {
  it('knows the four streamed tags when the whole item is the tag', () => {
    expect(streamedTag('<content-block-text>')).toEqual({ type: 'text', closing: false });
    expect(streamedTag('</content-block-thinking>')).toEqual({ type: 'thinking', closing: true });
  });

  it('is null for anything more or less than the tag', () => {
    expect(streamedTag('<content-block-text> ')).toBeNull();
    expect(streamedTag('<content-block-text>hi</content-block-text>')).toBeNull();
    expect(streamedTag('<content-block-tex>')).toBeNull();
    expect(streamedTag('')).toBeNull();
  });
});

describe('isCompleteElement and trailingVocabularyCloseTag', () => {
  it('an item ending with its own close tag, with />, or with another vocabulary close tag is complete', () => {
    expect(isCompleteElement('<citations><citation/></citations>', 'citations')).toBe(true);
    expect(isCompleteElement('<content-block-tool_call id="a" />', 'content-block-tool_call')).toBe(true);
    expect(isCompleteElement('<content-block-error><![CDATA[x]]></content-block-text>', 'content-block-error')).toBe(
      true,
    );
  });

  it('text that merely ends like markup is no close tag', () => {
    expect(isCompleteElement('<content-block-error>bold</b>', 'content-block-error')).toBe(false);
    expect(trailingVocabularyCloseTag('x</b>', 0)).toBeNull();
  });

  it('finds the wrong close tag and where it starts, only at or after `from`', () => {
    const text = '<meta_final data="{}"></content-block-error>';
    expect(trailingVocabularyCloseTag(text, 5)).toEqual({ tag: 'content-block-error', index: text.indexOf('</') });
    expect(trailingVocabularyCloseTag(text, text.length)).toBeNull();
  });
});

describe('unknownBlockTag', () => {
  const check = (data: string): string | null => unknownBlockTag(data, tagNameAt(data, 0));

  it('names a whole tag or element of the content-block- namespace the vocabulary lacks', () => {
    expect(check('<content-block-rollback id="1"/>')).toBe('content-block-rollback');
    expect(check('<content-block-rollback>')).toBe('content-block-rollback');
    expect(check('</content-block-redacted_thinking>')).toBe('content-block-redacted_thinking');
  });

  it('leaves known tags, other markup and partial items alone', () => {
    expect(check('<content-block-error><![CDATA[x]]></content-block-error>')).toBeNull();
    expect(check('</content-block-text>')).toBeNull();
    expect(check('<chart>')).toBeNull();
    expect(check('<content-block-rollback> and more')).toBeNull();
    expect(check('</content-block-x y>')).toBeNull();
  });
});

describe('server tool ids and raw attributes', () => {
  it('reads an attribute before any unescaping, or undefined when the start tag is unreadable', () => {
    expect(rawAttribute('<content-block-tool_result id="srvtoolu_1" name="a&amp;b">', 'name')).toBe('a&amp;b');
    expect(rawAttribute('<content-block-tool_result id=>', 'id')).toBeUndefined();
  });

  it('tells a server tool id by its prefix', () => {
    expect(isServerToolId('srvtoolu_01')).toBe(true);
    expect(isServerToolId('toolu_01')).toBe(false);
    expect(isServerToolId(undefined)).toBe(false);
  });
});
