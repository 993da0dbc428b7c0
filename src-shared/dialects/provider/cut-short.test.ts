import { describe, expect, it } from 'vitest';
import { cutShortBy } from './cut-short';

const TABLE = { max_tokens: 'the max_tokens limit' };

describe('cutShortBy', () => {
  it("names what cut the output short for a reason in the dialect's table", () => {
    expect(cutShortBy(TABLE, 'max_tokens')).toBe('the max_tokens limit');
  });

  it('says nothing of a reason that ends the output well, of none, or of a name on Object.prototype', () => {
    for (const reason of ['end_turn', undefined, 'constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(cutShortBy(TABLE, reason), String(reason)).toBeUndefined();
  });
});
