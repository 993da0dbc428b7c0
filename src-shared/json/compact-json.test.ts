import { describe, expect, it } from 'vitest';
import { integerEnd, integerValue, startsAt } from './compact-json';

describe('compact JSON pieces', () => {
  it('startsAt: the search at exactly that position, never before or after it, nor past the end', () => {
    expect(startsAt('{"type":"x"}', '{"type"', 0)).toBe(true);
    expect(startsAt('ab,"n":1', ',"n":', 2)).toBe(true);
    expect(startsAt(',"n":ab,"n":', ',"n":', 7)).toBe(true);
    expect(startsAt(',"n":ab', ',"n":', 2)).toBe(false);
    expect(startsAt('ab,"n"', ',"n":', 2)).toBe(false);
    expect(startsAt('数据,"n":', ',"n":', 2)).toBe(true);
    expect(startsAt('', 'x', 0)).toBe(false);
  });

  it('integerEnd and integerValue: JSON integers of up to the given digits, nothing else', () => {
    expect(integerEnd('x:0}', 2, 9)).toBe(3);
    expect(integerValue('x:123,', 2, integerEnd('x:123,', 2, 9))).toBe(123);
    expect(integerEnd('x:012', 2, 9)).toBe(-1);
    expect(integerEnd('x:-1', 2, 9)).toBe(-1);
    expect(integerEnd('x:}', 2, 9)).toBe(-1);
    expect(integerEnd('x:1234567890', 2, 9)).toBe(-1);
    expect(integerEnd('x:1.5', 2, 9)).toBe(3);
  });
});
