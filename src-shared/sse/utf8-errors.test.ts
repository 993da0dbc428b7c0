import { describe, expect, test } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { createUtf8Decoder } from '../text/utf8';
import { findInvalidUtf8, hexBytes } from './utf8-errors';

const decoder = createUtf8Decoder();

/** Bytes biased towards UTF-8 lead and continuation bytes, so most draws are near-valid. */
function randomBytes(seed: number, length: number): Uint8Array {
  const random = seededRandom(seed);
  const interesting = [
    0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
  ];
  return Uint8Array.from({ length }, () =>
    random() < 0.7 ? (interesting[Math.floor(random() * interesting.length)] as number) : Math.floor(random() * 256),
  );
}

describe('findInvalidUtf8', () => {
  test.each([
    ['valid ASCII and multi-byte', [0x61, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xf0, 0x9f, 0x98, 0x80], []],
    ['a lone continuation byte', [0x61, 0x80, 0x62], [[1, 2]]],
    ['a lead byte followed by ASCII', [0xc3, 0x28], [[0, 1]]],
    ['a truncated 3-byte sequence at the end', [0x61, 0xe6, 0x97], [[1, 3]]],
    [
      'an overlong lead byte',
      [0xc0, 0xaf],
      [
        [0, 1],
        [1, 2],
      ],
    ],
    [
      'a surrogate (ED A0 80)',
      [0xed, 0xa0, 0x80],
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    ],
    [
      'above U+10FFFF (F4 90)',
      [0xf4, 0x90, 0x80, 0x80],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
      ],
    ],
  ])('%s', (_name, bytes, expected) => {
    expect(findInvalidUtf8(Uint8Array.from(bytes), 0, bytes.length).map((r) => [r.start, r.end])).toEqual(expected);
  });

  test('respects the start and end bounds', () => {
    const bytes = Uint8Array.from([0xff, 0x61, 0xc3, 0xa9, 0xff]);
    expect(findInvalidUtf8(bytes, 1, 4)).toEqual([]);
    expect(findInvalidUtf8(bytes, 1, 3)).toEqual([{ start: 2, end: 3 }]);
  });

  test.each(Array.from({ length: 30 }, (_, i) => i + 1))(
    'agrees with TextDecoder on random bytes (seed %i)',
    (seed) => {
      const bytes = randomBytes(seed, 200);
      // Rebuild the decoder's output from the ranges: valid runs decoded, each range one U+FFFD.
      let rebuilt = '';
      let at = 0;
      for (const range of findInvalidUtf8(bytes, 0, bytes.length)) {
        rebuilt += decoder.decode(bytes.subarray(at, range.start));
        rebuilt += '\uFFFD';
        at = range.end;
      }
      rebuilt += decoder.decode(bytes.subarray(at));
      expect(rebuilt).toBe(decoder.decode(bytes));
    },
  );
});

test('hexBytes renders a few bytes and marks the rest', () => {
  expect(hexBytes(Uint8Array.from([0xc3, 0x28]), 0, 2)).toBe('C3 28');
  expect(hexBytes(new Uint8Array(10), 0, 10, 2)).toBe('00 00 …');
});
