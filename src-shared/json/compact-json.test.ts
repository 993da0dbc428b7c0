import { describe, expect, it, vi } from 'vitest';
import { integerEnd, integerValue, startsAt, stringValue } from './compact-json';

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

  it('stringValue: the value of a JSON string literal between its quotes, as JSON.parse reads it', () => {
    const value = (literal: string): string | undefined => stringValue(`x${literal}y`, 2, literal.length);
    expect(value('"plain"')).toBe('plain');
    expect(value(String.raw`"a \"quoted\" \\ \n \u00e9 \ud83d\ude00"`)).toBe('a "quoted" \\ \n é 😀');
    expect(value(String.raw`"bad \x escape"`)).toBeUndefined();
    expect(value('"a raw control character \u0001 with an escape \\n"')).toBeUndefined();
    expect(value(String.raw`"ends in an escaped quote \"`)).toBeUndefined();
  });

  it('stringValue: a literal that ends before `end` (an event with more fields than its shape) is declined without an exception', () => {
    // What a shape reads when a tool call's delta is followed by its id and name.
    const data = String.raw`{"delta":"{\"a\": 1}","id":"toolu_01","name":"add"}`;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(stringValue(data, 10, data.length - 2)).toBeUndefined();
      expect(parse).not.toHaveBeenCalled();
      expect(stringValue(data, 10, data.indexOf('","id"'))).toBe('{"a": 1}');
    } finally {
      parse.mockRestore();
    }
  });
});
