import { describe, expect, it } from 'vitest';
import { parseSegments } from './collect';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from './types';

/** `<think>`: the reasoning open models write into their text, read outside the tool protocol. */
const read = (text: string, options: InlineOptions = DEFAULT_INLINE_OPTIONS) => {
  const { segments, findings } = parseSegments(text, options);
  return { segments: segments.map((s) => [s.type, s.content, s.complete]), rules: findings.map((f) => f.rule) };
};

describe('<think> in a text', () => {
  it('is a reasoning segment that asks for no action, ended by </think> alone (tags inside it are words)', () => {
    const words = '\nThe user greets; mention <search> and <attempt_completion> as words.\n';
    expect(read(`<think>${words}</think>\n\nHello!`)).toEqual({
      segments: [
        ['reasoning', words, true],
        ['text', '\n\nHello!', true],
      ],
      rules: [],
    });
  });

  it('cut inside it: the reasoning is unclosed, and still no action is asked for', () => {
    expect(read('<think>still thinking')).toEqual({
      segments: [['reasoning', 'still thinking', false]],
      rules: ['inline.unclosed'],
    });
  });

  it("must not: <thinking> stays the protocol's reasoning, which asks for an action; <thinker> is text", () => {
    expect(read('<thinking>hmm</thinking>Plain answer.').rules).toEqual(['inline.no-action']);
    expect(read('<thinker>x</thinker>', { ...DEFAULT_INLINE_OPTIONS, mode: 'xml' }).segments).toEqual([
      ['text', '<thinker>x</thinker>', true],
    ]);
  });
});
