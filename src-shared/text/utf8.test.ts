import { describe, expect, test } from 'vitest';
import { detachString } from './detach';
import { utf8ByteLength } from './utf8';

const encoded = (text: string): number => new TextEncoder().encode(text).length;

describe('utf8ByteLength', () => {
  test.each([
    ['empty', ''],
    ['ASCII', 'data: {"type":"text"}'],
    ['2-byte', 'résumé über'],
    ['3-byte', '日本語 €'],
    ['4-byte pair', '😀 ok'],
    ['lone high surrogate (U+FFFD, 3 bytes)', 'a\uD83D b'],
    ['lone low surrogate at the end', 'a\uDE00'],
  ])('%s: the byte count of the UTF-8 encoding', (_name, text) => {
    expect(utf8ByteLength(text)).toBe(encoded(text));
  });

  test('strings too long for the scratch buffer are counted the same, a window at a time', () => {
    const text = `${'x'.repeat(200_000)}é😀\uD800${'日'.repeat(200_000)}`;
    expect(utf8ByteLength(text)).toBe(encoded(text));
    // Around the end of the first window (a third of the 1 MiB buffer, in characters): a pair
    // across it, a lone high surrogate before it, a lone low surrogate after it.
    const window = Math.floor((1024 * 1024) / 3);
    for (const around of ['😀', '\uD800y', 'y\uDC00', '😀😀']) {
      for (let shift = -2; shift <= 1; shift++) {
        const long = `${'x'.repeat(window + shift)}${around}${'é'.repeat(window)}`;
        expect(utf8ByteLength(long), `${JSON.stringify(around)} at ${shift}`).toBe(encoded(long));
      }
    }
  });

  test('a string longer than the last one grows the scratch buffer instead of being cut', () => {
    expect(utf8ByteLength('é'.repeat(10))).toBe(20);
    expect(utf8ByteLength('é'.repeat(100_000))).toBe(200_000);
  });
});

test('detachString returns an equal string', () => {
  const region = `${'x'.repeat(100)}payload${'y'.repeat(100)}`;
  const slice = region.slice(100, 107);
  expect(detachString(slice)).toBe('payload');
  expect(detachString('')).toBe('');
});
