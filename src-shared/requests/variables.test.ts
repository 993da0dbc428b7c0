import { describe, expect, it } from 'vitest';
import {
  maskSecrets,
  referencedNames,
  requestReferences,
  resolveRequest,
  UnknownVariableError,
  type Variable,
} from './variables';

const vars: Variable[] = [
  { name: 'base_url', value: 'http://127.0.0.1:8787', secret: false },
  { name: 'token', value: 'sk-"quoted"\\x', secret: true },
  { name: 'count', value: '3', secret: false },
];

const request = {
  url: '{{base_url}}/agent/run?k={{ token }}',
  headers: [['Authorization', 'Bearer {{token}}'] as [string, string], ['X-Count', '{{count}}'] as [string, string]],
  body: { kind: 'json' as const, text: '{"key": "{{token}}", "n": {{count}}, "template": "{{#each}} {{ }}"}' },
};

describe('references', () => {
  it('finds names in order of first use, with spaces inside the braces, and ignores template text', () => {
    expect(referencedNames('{{a}} {{ b.c-d }} {{a}} {{#each}} {{ }} {{9x}}')).toEqual(['a', 'b.c-d']);
    expect(requestReferences(request)).toEqual(['base_url', 'token', 'count']);
  });
});

describe('resolveRequest', () => {
  it('fills URL, header values and body; a value inside a JSON string is escaped so the body stays valid', () => {
    const wire = resolveRequest(request, vars, 'Dev');
    expect(wire.url).toBe('http://127.0.0.1:8787/agent/run?k=sk-"quoted"\\x');
    expect(wire.headers).toEqual([
      ['Authorization', 'Bearer sk-"quoted"\\x'],
      ['X-Count', '3'],
    ]);
    const body = JSON.parse(wire.body?.text ?? '') as Record<string, unknown>;
    expect(body).toEqual({ key: 'sk-"quoted"\\x', n: 3, template: '{{#each}} {{ }}' });
  });

  it('masked: secrets stay {{name}}, the rest is filled', () => {
    const shown = resolveRequest(request, vars, 'Dev', 'masked');
    expect(shown.url).toBe('http://127.0.0.1:8787/agent/run?k={{token}}');
    expect(shown.headers[0]).toEqual(['Authorization', 'Bearer {{token}}']);
    expect(shown.body?.text).toContain('"key": "{{token}}"');
    expect(JSON.stringify(shown)).not.toContain('sk-');
  });

  it('an unknown variable is named, with where it was used and which environment lacks it', () => {
    expect(() => resolveRequest({ url: 'http://x/{{nope}}', headers: [] }, vars, 'Dev')).toThrow(UnknownVariableError);
    expect(() => resolveRequest({ url: 'http://x/', headers: [['A', '{{missing}}']] }, vars, 'Dev')).toThrow(
      /\{\{missing\}\} \(in the header value\) but the environment "Dev" does not define it/,
    );
    expect(() => resolveRequest({ url: '{{base_url}}', headers: [] }, [], null)).toThrow(/no environment is selected/);
    expect(() =>
      resolveRequest({ url: 'http://x', headers: [], body: { kind: 'raw', text: 'a {{b}}' } }, vars, 'Dev'),
    ).toThrow(/in the body/);
  });

  it('a request without references is returned as it is', () => {
    const plain = {
      url: 'http://x/y',
      headers: [['A', 'b'] as [string, string]],
      body: { kind: 'raw' as const, text: '{ "a": 1 }' },
    };
    expect(resolveRequest(plain, [], null)).toEqual(plain);
  });

  it('a value that looks like a reference is not expanded again', () => {
    const wire = resolveRequest(
      { url: 'http://x/{{a}}', headers: [] },
      [{ name: 'a', value: '{{b}}', secret: false }],
      'E',
    );
    expect(wire.url).toBe('http://x/{{b}}');
  });
});

describe('maskSecrets', () => {
  it('masks every form of the value: as written, percent-encoded and JSON-escaped; longest first', () => {
    const secrets = [
      { name: 'token', value: 'a b"c' },
      { name: 'long', value: 'XYZ-a b"c-XYZ' },
    ];
    expect(maskSecrets('1 a b"c 2 a%20b%22c 3 a b\\"c 4 XYZ-a b"c-XYZ', secrets)).toBe(
      '1 {{token}} 2 {{token}} 3 {{token}} 4 {{long}}',
    );
  });

  it('an empty secret masks nothing', () => {
    expect(maskSecrets('abc', [{ name: 'e', value: '' }])).toBe('abc');
  });
});
