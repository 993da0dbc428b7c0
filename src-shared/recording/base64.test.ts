import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { decodeBase64, encodeBase64 } from './base64';

const randomBytes = (length: number, seed: number): Uint8Array => {
  const random = seededRandom(seed);
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
};

describe('base64', () => {
  it.each([0, 1, 2, 3, 4, 5, 1000, 70_000])('matches Node for %i random bytes and round-trips', (length) => {
    const bytes = randomBytes(length, length + 1);
    const encoded = encodeBase64(bytes);
    expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
    expect(decodeBase64(encoded)).toEqual(bytes);
  });

  it.each(['QQ=', 'QQ==QQ==', 'Q!==', 'QUJD\n', 'QUJ€', '====', 'Q==='])('rejects %j as damaged', (text) => {
    expect(decodeBase64(text)).toBeNull();
  });

  it('decodes the empty string to no bytes', () => {
    expect(decodeBase64('')).toEqual(new Uint8Array(0));
  });
});
