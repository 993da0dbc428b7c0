import { expect, test } from 'vitest';
import { pythonJsonError } from './python-json-error';

// [text, position, message] as CPython's json.loads reports them (JSONDecodeError.pos / .msg).
const CASES: [string, number, string][] = [
  ['{"user_prompt": }', 16, 'Expecting value'],
  ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
  ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ['[1 2]', 3, "Expecting ',' delimiter"],
  ['{"a" 1}', 5, "Expecting ':' delimiter"],
  ['"abc', 0, 'Unterminated string starting at'],
  ['{"a":"\\x"}', 6, 'Invalid \\escape'],
  ['{"a":"b\nc"}', 7, 'Invalid control character at'],
  ['1 2', 2, 'Extra data'],
  ['  ', 2, 'Expecting value'],
  ['[1,]', 3, 'Expecting value'],
  ['{"a":1', 6, "Expecting ',' delimiter"],
  ['tru', 0, 'Expecting value'],
  ['{"a":[1,2}', 9, "Expecting ',' delimiter"],
  ['"\\u12g4"', 2, 'Invalid \\uXXXX escape'],
];

test.each(CASES)('%j → %d %s', (text, position, reason) => {
  expect(pythonJsonError(text)).toEqual({ position, reason });
});
