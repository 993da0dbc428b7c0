import { describe, expect, it } from 'vitest';
import { decodeProviderEvents } from '../../../src-main/testing/provider-streams';
import { RecentContentDelta } from './recent-content';

const chunk = (content: string, tail = ',"logprobs":null,"finish_reason":null}]'): string =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}${tail}}`;

function learnt(data: string, text: string, keys: readonly string[] = ['content']): RecentContentDelta<string> {
  const reader = new RecentContentDelta<string>();
  reader.learn(data, keys, text, 'meaning');
  return reader;
}

describe('a content chunk learnt, the next ones read without JSON.parse', () => {
  it('reads the same chunk with other text, escapes included', () => {
    const reader = learnt(chunk('Hello'), 'Hello');
    expect(reader.meaning).toBe('meaning');
    for (const text of [' world', 'a "quote"', 'line\nbreak', '数据 😀']) {
      expect(reader.read(chunk(text)), text).toBe(true);
      expect(reader.text).toBe(text);
    }
  });

  it('reads past an obfuscation value that changes, and declines one with escapes', () => {
    const padded = (content: string, pad: string): string =>
      chunk(content, `,"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"${pad}"`);
    const reader = learnt(padded('Hi', 'Qup1'), 'Hi');
    expect(reader.read(padded(' there', 'x'))).toBe(true);
    expect(reader.text).toBe(' there');
    expect(reader.read(padded('!', ''))).toBe(true);
    expect(reader.read(padded('!', 'a\\"b'))).toBe(false);
    expect(learnt(padded('Hi', 'a\\u0041'), 'Hi').meaning).toBeUndefined();
  });

  it('declines another prefix or suffix, empty text, a raw control character, and a chunk cut short', () => {
    const reader = learnt(chunk('Hello'), 'Hello');
    expect(reader.read(chunk('x').replace('chatcmpl-1', 'chatcmpl-2'))).toBe(false);
    expect(reader.read(chunk('x', ',"logprobs":null,"finish_reason":"stop"}]'))).toBe(false);
    expect(reader.read(chunk(''))).toBe(false);
    expect(reader.read(chunk('x').replace('"x"', '"a\u0001b"'))).toBe(false);
    expect(reader.read(chunk('x').slice(0, -2))).toBe(false);
    expect(reader.read(`${chunk('x')} `)).toBe(false);
  });

  it('learns nothing from a chunk whose text is not its only such member, or not where it says', () => {
    expect(learnt(chunk('Hi').replace('"index":0', '"index":0,"note":{"content":"Hi"}'), 'Hi').meaning).toBeUndefined();
    expect(learnt(chunk('Hi'), 'Other').meaning).toBeUndefined();
    const reasoning = '{"choices":[{"index":0,"delta":{"content":null,"reasoning":"Hm"}}]}';
    const reader = learnt(reasoning, 'Hm', ['reasoning_content', 'reasoning']);
    expect(reader.read(reasoning.replace('"Hm"', '"Ok"'))).toBe(true);
    expect(reader.text).toBe('Ok');
  });
});

describe('the decoder reads a stream the same with and without the fast path', () => {
  it('chunks whose prefix changes every time (all parsed) give the same text envelopes as repeating ones', () => {
    const words = ['The', ' quick', ' "brown"', '\n', ' fox', ' 数据', ' 😀'];
    const stream = (created: (i: number) => number): string[] => [
      ...words.map(
        (content, i) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: created(i), choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`,
      ),
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      'data: [DONE]\n\n',
    ];
    const texts = (events: string[]) =>
      decodeProviderEvents(events)
        .envelopes.filter((e) => e.type === 'text')
        .map(({ delta, final, extras, unified, agent, frame }) => ({ delta, final, extras, unified, agent, frame }));
    const repeating = texts(stream(() => 1));
    expect(repeating.map((e) => e.delta).join('')).toBe(words.join(''));
    expect(texts(stream((i) => 1000 + i))).toEqual(repeating);
  });
});
