import { describe, expect, test } from 'vitest';
import { holdBackPartialTag, MAX_HOLDBACK, mayBecomeWatchedTag, watchedWithInlineTags } from './holdback';

describe('holdBackPartialTag', () => {
  test.each([
    ['Hello <', 'Hello ', 1],
    ['Hello </', 'Hello ', 2],
    ['Hello </content-bl', 'Hello ', 12],
    ['Hello </content-block-te', 'Hello ', 18],
    ['Chart: <ch', 'Chart: ', 3],
    ['Chart: <chart', 'Chart: ', 6],
    ['Chart: <chart type="bar" data="[1,2', 'Chart: ', 28],
    ['a </tab', 'a ', 5],
  ])('a live text ending in a partial watched tag holds it back: %j', (text, visible, held) => {
    expect(holdBackPartialTag(text, true)).toEqual({ visible, heldBack: held });
  });

  test.each([
    ['x < y', 'a comparison'],
    ['a <b>bold', 'a complete tag'],
    ['see <chart>', 'a complete chart tag'],
    ['<charts are fun', 'a longer word than the tag name'],
    ['<div', 'an unwatched tag'],
    ['1 <2', 'a number after <'],
  ])('shows %j in full (%s)', (text) => {
    expect(holdBackPartialTag(text, true)).toEqual({ visible: text, heldBack: 0 });
  });

  test('a complete block is never held back', () => {
    expect(holdBackPartialTag('done </content-block-te', false)).toEqual({
      visible: 'done </content-block-te',
      heldBack: 0,
    });
  });

  test('the held-back tail is released once the tag completes or stops being a tag', () => {
    const deltas = ['Result: <', 'cha', 'rt', '>', ' ok'];
    const shown: string[] = [];
    let text = '';
    for (const delta of deltas) {
      text += delta;
      shown.push(holdBackPartialTag(text, true).visible);
    }
    expect(shown).toEqual(['Result: ', 'Result: ', 'Result: ', 'Result: <chart>', 'Result: <chart> ok']);
  });

  test('a tail longer than MAX_HOLDBACK is shown (a stray < never hides content for long)', () => {
    const long = `<chart ${'x'.repeat(MAX_HOLDBACK)}`;
    expect(holdBackPartialTag(`intro ${long}`, true).heldBack).toBe(0);
    const short = `<chart ${'x'.repeat(MAX_HOLDBACK - 10)}`;
    expect(holdBackPartialTag(`intro ${short}`, true).heldBack).toBe(short.length);
  });

  test('only the last < counts', () => {
    expect(holdBackPartialTag('<chart> and then </cha', true)).toEqual({ visible: '<chart> and then ', heldBack: 5 });
  });
});

describe('mayBecomeWatchedTag', () => {
  test.each([
    ['<', true],
    ['</content-block-', true],
    ['<content-block-text', true],
    ['<chart ', true],
    ['<chart/', true],
    ['<chartx', false],
    ['<tablet', false],
    ['<p', false],
  ])('%j → %s', (tail, expected) => {
    expect(mayBecomeWatchedTag(tail)).toBe(expected);
  });
});

describe("holdBackPartialTag with the inline protocols' tags", () => {
  const starts = watchedWithInlineTags(['thinking', 'search']);

  test.each([
    ['Let me <thin', 'Let me ', 5],
    ['<thinking>ok</thinking>\n<sea', '<thinking>ok</thinking>\n', 4],
    ['<search><query>x</query></sear', '<search><query>x</query>', 6],
  ])('holds back a partial inline tag in a live raw text: %j', (text, visible, held) => {
    expect(holdBackPartialTag(text, true, starts)).toEqual({ visible, heldBack: held });
  });

  test('shows a tag that is no inline tag', () => {
    expect(holdBackPartialTag('a <seat', true, starts)).toEqual({ visible: 'a <seat', heldBack: 0 });
  });
});
