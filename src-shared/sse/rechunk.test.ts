import { describe, expect, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import { readFixture } from '../../src-main/testing/fixtures';
import { createRechunker, splitEvery } from './rechunk';

const asArrays = (pieces: readonly Uint8Array[]): number[][] => pieces.map((p) => Array.from(p));

function rechunkStream(chunks: readonly Uint8Array[], size: number): Uint8Array[] {
  const rechunker = createRechunker(size);
  return [...chunks.flatMap((c) => rechunker.push(c)), ...rechunker.end()];
}

describe('createRechunker: splitEvery of a stream that arrives in chunks', () => {
  const bytes = readFixture('example_1.xml.sse').subarray(0, 3000);

  test.each([1, 7, 64, 4096])(
    'pieces of %i bytes equal splitEvery of the whole, however the input was chunked',
    (size) => {
      const expected = asArrays(splitEvery(bytes, size));
      for (const { name, chunks } of chunkings(bytes, [5, 11])) {
        expect({ name, pieces: asArrays(rechunkStream(chunks, size)) }).toEqual({ name, pieces: expected });
      }
    },
  );

  test('a piece is passed on by the push that completes it, and the remainder by end()', () => {
    const rechunker = createRechunker(4);
    expect(asArrays(rechunker.push(Uint8Array.from([1, 2, 3])))).toEqual([]);
    expect(asArrays(rechunker.push(Uint8Array.from([4, 5, 6, 7, 8, 9])))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(asArrays(rechunker.end())).toEqual([[9]]);
    expect(rechunker.end()).toEqual([]);
  });

  test('held bytes are copies: the caller may reuse its buffer after push', () => {
    const rechunker = createRechunker(4);
    const buffer = Uint8Array.from([1, 2]);
    rechunker.push(buffer);
    buffer.fill(0);
    expect(asArrays(rechunker.push(Uint8Array.from([3, 4])))).toEqual([[1, 2, 3, 4]]);
  });

  test('one-byte pushes fill large pieces', () => {
    const rechunker = createRechunker(1 << 16);
    const byte = Uint8Array.from([0x78]);
    const sizes: number[] = [];
    for (let i = 0; i < (1 << 17) + 5; i++) for (const piece of rechunker.push(byte)) sizes.push(piece.length);
    for (const piece of rechunker.end()) sizes.push(piece.length);
    expect(sizes).toEqual([1 << 16, 1 << 16, 5]);
  });
});
