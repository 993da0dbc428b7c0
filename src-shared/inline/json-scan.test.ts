import { expect, it } from 'vitest';
import { createJsonScanner, MAX_JSON_DEPTH } from './json-scan';

const none = {
  key: () => undefined,
  valueStart: () => undefined,
  stringValue: () => undefined,
  close: () => undefined,
};

/** 'done' at the last character, 'more' when it wants more, or the error. */
function scan(text: string): string {
  const scanner = createJsonScanner(none);
  for (let i = 0; i < text.length; i++) {
    const step = scanner.step(text.charAt(i));
    if (typeof step === 'object') return `error: ${step.error}`;
    if (step === 'done') return i === text.length - 1 ? 'done' : 'done early';
  }
  return 'more';
}

it('accepts what JSON.parse accepts, and nothing it rejects', () => {
  const valid = [
    '{}',
    '[]',
    '{"a":1}',
    '[1,-2.5e+3,0,true,false,null,"s"]',
    '{"a":{"b":[{"c":"\\u00e9\\n\\"}"}]}}',
    ' { "a" : [ 1 , 2 ] } '.trim(),
    '[[[[]]]]',
    '{"":""}',
  ];
  const invalid = [
    '{a:1}',
    '{"a":1,}',
    '[1,]',
    '[01]',
    '{"a" 1}',
    '["\\x"]',
    '["a\nb"]',
    '[tru]',
    '{"a":1]',
    '[1 2]',
    '[-]',
    '[1.]',
  ];
  for (const text of valid) {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect([text, scan(text)]).toEqual([text, 'done']);
  }
  for (const text of invalid) {
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect([text, scan(text)]).toEqual([text, expect.stringMatching(/^error/) as unknown]);
  }
});

it('reports nesting deeper than MAX_JSON_DEPTH as an error instead of descending', () => {
  expect(scan('['.repeat(MAX_JSON_DEPTH))).toBe('more');
  expect(scan('['.repeat(MAX_JSON_DEPTH + 1))).toMatch(/^error: nesting deeper/);
});

it('says what closes a value cut off in the middle', () => {
  const scanner = createJsonScanner(none);
  const cut = '{"a": [1, {"b": "x';
  for (const c of cut) scanner.step(c);
  expect(JSON.parse(cut + scanner.closers())).toEqual({ a: [1, { b: 'x' }] });
});
