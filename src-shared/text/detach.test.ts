import { describe, expect, it } from 'vitest';
import { detachString } from './detach';

describe('detachString', () => {
  it.each([
    ['empty', ''],
    ['short ASCII', 'abc'],
    ['long ASCII, NUL and DEL included', `${'x\u0000y\u007f{"a":"b"}\n'.repeat(20)}`],
    ['long text with one non-ASCII character', `${'a'.repeat(100)}é`],
    ['long text with a lone surrogate', `${'a'.repeat(100)}\ud800`],
    ['long text with an emoji', `😀${'b'.repeat(100)}`],
    // As many UTF-8 bytes fit in text.length as it has characters, but not all of it is read.
    ['long text ending in a two-byte and a three-byte character', `${'a'.repeat(98)}é€`],
  ])('keeps %s exactly', (_name, text) => {
    expect(detachString(text)).toBe(text);
  });

  it('keeps a slice of two-byte text exactly, ASCII or not', () => {
    const chunk = `€${'<content-block-text>hello "world" & more</content-block-text>'.repeat(40)}日本`;
    for (const [start, end] of [
      [1, 200],
      [1, chunk.length],
      [0, 90],
      [chunk.length - 80, chunk.length],
    ] as const) {
      expect(detachString(chunk.slice(start, end))).toBe(chunk.slice(start, end));
    }
  });

  it('copies texts longer than its scratch space exactly', () => {
    const long = 'abcdefgh'.repeat(300_000);
    expect(detachString(long)).toBe(long);
  });
});
