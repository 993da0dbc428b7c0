import { describe, expect, test } from 'vitest';
import { PyModel, pyDumps, pyFloat, pyRepr, toPlain } from './python-json';

// Expected strings were produced by CPython 3 (json.dumps, repr, html.escape).

describe('pyDumps matches json.dumps', () => {
  const value = {
    a: 'é😀\n\u007f\u0001"\\',
    b: [1, 2.5, pyFloat(0), 0.0102, 1e-5, 1e16, null, true, -0.5],
    c: {},
    d: [],
  };

  test('defaults: ASCII only, spaced separators', () => {
    expect(pyDumps(value)).toBe(
      '{"a": "\\u00e9\\ud83d\\ude00\\n\\u007f\\u0001\\"\\\\", "b": [1, 2.5, 0.0, 0.0102, 1e-05, 1e+16, null, true, -0.5], "c": {}, "d": []}',
    );
  });

  test('ensure_ascii=False keeps non-ASCII and DEL raw, still escapes control characters', () => {
    expect(pyDumps(value, { ensureAscii: false })).toBe(
      '{"a": "é😀\\n\u007f\\u0001\\"\\\\", "b": [1, 2.5, 0.0, 0.0102, 1e-05, 1e+16, null, true, -0.5], "c": {}, "d": []}',
    );
  });

  test('non-finite floats: NaN and Infinity in JSON, nan and inf in a repr', () => {
    expect(pyDumps([NaN, Infinity, pyFloat(-Infinity)])).toBe('[NaN, Infinity, -Infinity]');
    expect(pyRepr([NaN, Infinity, pyFloat(-Infinity)])).toBe('[nan, inf, -inf]');
  });

  test('compact separators', () => {
    expect(pyDumps({ files: [{ id: 'f', n: 1 }] }, { compact: true })).toBe('{"files":[{"id":"f","n":1}]}');
  });

  test('U+2028, tab, backspace and form feed', () => {
    expect(pyDumps({ k: '\u2028\u007f\u001f\t\b\f' })).toBe('{"k": "\\u2028\\u007f\\u001f\\t\\b\\f"}');
    expect(pyDumps({ k: '\u2028\u001f\t\b\f' }, { ensureAscii: false })).toBe('{"k": "\u2028\\u001f\\t\\b\\f"}');
  });

  test('an SDK model prints as its repr (default=str)', () => {
    const model = new PyModel('BetaBashCodeExecutionResultBlock', {
      content: [
        new PyModel('BetaBashCodeExecutionOutputBlock', { file_id: 'file_1', type: 'bash_code_execution_output' }),
      ],
      return_code: 0,
      stderr: '',
      stdout: 'it\'s "x"\nok\té\u0085',
      type: 'bash_code_execution_result',
    });
    expect(pyRepr(model)).toBe(
      "BetaBashCodeExecutionResultBlock(content=[BetaBashCodeExecutionOutputBlock(file_id='file_1', type='bash_code_execution_output')], return_code=0, stderr='', stdout='it\\'s \"x\"\\nok\\té\\x85', type='bash_code_execution_result')",
    );
    expect(pyDumps([model, 'x'])).toBe(
      "[\"BetaBashCodeExecutionResultBlock(content=[BetaBashCodeExecutionOutputBlock(file_id='file_1', type='bash_code_execution_output')], return_code=0, stderr='', stdout='it\\\\'s \\\"x\\\"\\\\nok\\\\t\\u00e9\\\\x85', type='bash_code_execution_result')\", \"x\"]",
    );
    expect(toPlain(model)).toEqual({
      content: [{ file_id: 'file_1', type: 'bash_code_execution_output' }],
      return_code: 0,
      stderr: '',
      stdout: 'it\'s "x"\nok\té\u0085',
      type: 'bash_code_execution_result',
    });
  });
});

describe('pyRepr of strings picks quotes like Python', () => {
  test.each([
    ["it's", '"it\'s"'],
    ['say "hi"', '\'say "hi"\''],
    ['both \' and "', "'both \\' and \"'"],
    ['tab\there\\', "'tab\\there\\\\'"],
    ['\u0000\u0085é', "'\\x00\\x85é'"],
  ])('%j', (text, repr) => {
    expect(pyRepr(text)).toBe(repr);
  });

  test('None, booleans, dicts', () => {
    expect(pyRepr({ type: 'error', error: { details: null, ok: false } })).toBe(
      "{'type': 'error', 'error': {'details': None, 'ok': False}}",
    );
  });
});
