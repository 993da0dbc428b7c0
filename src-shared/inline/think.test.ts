import { describe, expect, it } from 'vitest';
import { RULES } from '../diagnostics/rules';
import { createInlineDocument, parseSegments } from './collect';
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

describe('a </think> no <think> opened (the chat template opened it in the prompt)', () => {
  // DeepSeek-R1 and QwQ served without a reasoning parser: the prompt ends in `<think>\n`, so
  // the output starts inside the reasoning (vLLM's deepseek_r1 parser reads it the same way).
  const r1 = 'Okay, the user says hi. I should greet back.\n</think>\n\nHello! How can I help?';

  it('reads the text before it at the start of the block as reasoning, and says the opening tag was implied', () => {
    const { segments, findings } = parseSegments(r1, DEFAULT_INLINE_OPTIONS);
    expect(segments.map((s) => [s.type, s.content, s.complete, s.start, s.end])).toEqual([
      ['reasoning', 'Okay, the user says hi. I should greet back.\n', true, 0, r1.indexOf('</think>') + 8],
      ['text', '\n\nHello! How can I help?', true, r1.indexOf('</think>') + 8, r1.length],
    ]);
    expect(findings.map((f) => [f.rule, f.offset])).toEqual([['inline.think-open-implied', r1.indexOf('</think>')]]);
  });

  it("the finding's title places the tag after the reasoning, not at the block's start", () => {
    expect(read(r1).rules).toEqual(['inline.think-open-implied']);
    expect(RULES['inline.think-open-implied'].title).not.toMatch(/at the start/);
    expect(RULES['inline.think-open-implied'].title).toMatch(/^A <\/think> with only text before it/);
  });

  it('streamed one character at a time: the same segments (the text segment becomes the reasoning)', () => {
    const doc = createInlineDocument(DEFAULT_INLINE_OPTIONS);
    for (const c of r1) doc.parser.push(c);
    doc.parser.end();
    expect(doc.segments.map((s) => [s.type, s.content])).toEqual(
      read(r1).segments.map(([type, content]) => [type, content]),
    );
  });

  it('empty or blank reasoning before it is an empty reasoning segment', () => {
    expect(read('</think>Answer.')).toEqual({
      segments: [
        ['reasoning', '', true],
        ['text', 'Answer.', true],
      ],
      rules: ['inline.think-open-implied'],
    });
    expect(read('\n\n</think>\n\nAnswer.').segments).toEqual([
      ['reasoning', '\n\n', true],
      ['text', '\n\nAnswer.', true],
    ]);
  });

  it("must not: a normal <think>…</think>, or a </think> after a segment (it closes nothing: today's finding)", () => {
    expect(read('<think>hmm</think>Hi.').rules).toEqual([]);
    expect(read('<think>a</think>b</think>c')).toEqual({
      segments: [
        ['reasoning', 'a', true],
        ['text', 'b</think>c', true],
      ],
      rules: ['inline.mismatched-close'],
    });
  });

  it('must not: the tag mentioned in code or quotes, or another stray close tag', () => {
    for (const text of ['Close it with `</think>` first.', 'The tag "</think>" ends it.', "Write '</think>'."])
      expect(read(text)).toEqual({ segments: [['text', text, true]], rules: ['inline.mismatched-close'] });
    expect(read('x</thinking>y').rules).toEqual(['inline.mismatched-close']);
  });
});
