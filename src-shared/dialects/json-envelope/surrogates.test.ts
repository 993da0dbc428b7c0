import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../sse/rechunk';
import { findLoneSurrogateEscapes, type LoneSurrogateEscape } from './surrogates';

/**
 * The plain definition, as a reference: walk the text left to right, take every backslash
 * with the character after it as one escape, and look at each `\u` escape's four hex digits.
 */
function referenceLoneSurrogates(text: string): LoneSurrogateEscape[] {
  const escapes: { index: number; code: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\') continue;
    if (text[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      escapes.push({ index: i, code: Number.parseInt(text.slice(i + 2, i + 6), 16) });
      i += 5;
    } else i += 1;
  }
  const found: LoneSurrogateEscape[] = [];
  for (let k = 0; k < escapes.length; k++) {
    const { index, code } = escapes[k] as { index: number; code: number };
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = escapes[k + 1];
    // A high surrogate directly followed by a low one is a pair.
    if (code <= 0xdbff && next && next.index === index + 6 && next.code >= 0xdc00 && next.code <= 0xdfff) {
      k++;
      continue;
    }
    found.push({ index, escape: text.slice(index, index + 6) });
  }
  return found;
}

describe('findLoneSurrogateEscapes', () => {
  it('agrees with a left-to-right walk over escapes on random text of backslashes, u, hex digits and escapes', () => {
    const random = seededRandom(14);
    const pieces = [
      '\\',
      '\\\\',
      'u',
      'D',
      '8',
      '3',
      'd',
      'E',
      'C',
      '0',
      'F',
      'x',
      '"',
      '\\"',
      '\\n',
      '\\uD83D',
      '\\uDE00',
      '\\udc00',
      '\\uDBFF',
      '\\u0041',
      '\\uD8',
      '😀',
      'é',
    ];
    for (let n = 0; n < 5000; n++) {
      const length = Math.floor(random() * 24);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect(findLoneSurrogateEscapes(text), JSON.stringify(text)).toEqual(referenceLoneSurrogates(text));
    }
  });

  it('tells an escaped backslash before u from an escape, however long the run of backslashes', () => {
    expect(findLoneSurrogateEscapes(String.raw`\\uD800`)).toEqual([]);
    expect(findLoneSurrogateEscapes(String.raw`\\\uD800`)).toEqual([{ index: 2, escape: String.raw`\uD800` }]);
    expect(findLoneSurrogateEscapes(String.raw`\\\\uD800`)).toEqual([]);
  });
});
