import { describe, expect, it } from 'vitest';
import { pythonFloat, pythonNumber, pythonString } from './repr';

// Expected strings were produced by CPython 3.

describe('pythonString (repr of str)', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", '"it\'s"'],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['a\\b', "'a\\\\b'"],
    ['line\nnext\r\ttab', "'line\\nnext\\r\\ttab'"],
    ['\u0000\u001f\u007f', "'\\x00\\x1f\\x7f'"],
    ['naïve 日本 😀', "'naïve 日本 😀'"],
    ['\u2028\u00a0', "'\\u2028\\xa0'"],
  ])('%j → %s', (text, repr) => {
    expect(pythonString(text)).toBe(repr);
  });
});

describe('pythonNumber (repr of int and float)', () => {
  it.each([
    [0, '0'],
    [-3, '-3'],
    [0.1, '0.1'],
    [1.5e-7, '1.5e-07'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1.25e22, '1.25e+22'],
  ])('%d → %s', (n, repr) => {
    expect(pythonNumber(n)).toBe(repr);
  });
});

describe('pythonFloat matches float.__repr__', () => {
  it.each([
    [0, '0.0'],
    [-0, '-0.0'],
    [1, '1.0'],
    [0.1, '0.1'],
    [1e-4, '0.0001'],
    [1e-5, '1e-05'],
    [123.456, '123.456'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.5e300, '1.5e+300'],
    [2.5e-7, '2.5e-07'],
    [100, '100.0'],
    [0.012899999999999998, '0.012899999999999998'],
    [0.0102 + 0.0027, '0.012900000000000002'],
    [NaN, 'nan'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
  ])('%d → %s', (x, repr) => {
    expect(pythonFloat(x)).toBe(repr);
  });
});
