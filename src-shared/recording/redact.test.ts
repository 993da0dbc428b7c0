import { describe, expect, it } from 'vitest';
import { isSecretName, REDACTED, redactBody, redactHeaders, redactRequest, redactUrl } from './redact';

/** Every test plants this value; none of it may survive redaction. */
const CANARY = 'CANARY-5e3c';

describe('isSecretName: one policy for header names, JSON keys, form fields and query parameters', () => {
  it.each([
    'Authorization',
    'proxy-authorization',
    'Cookie',
    'Set-Cookie',
    'x-api-key',
    'api-key',
    'X-Auth-Token',
    'anthropic-secret',
    'X-Goog-Api-Key',
    'x-password',
    'openai_api_key',
    'anthropic_api_key',
    'private_key',
    'privateKey',
    'apiKey',
    'api_keys',
    'key',
    'credentials',
    'client_secret',
    'access_token',
    'refresh_token',
    'id_token',
    'accessToken',
    'password',
    'passwd',
    'pwd',
    'pass',
    'code',
    'sig',
    'jwt',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'x-amz-security-token',
    'session_id',
    'APIKEY',
    'Authorisation',
  ])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'max_tokens',
    'input_tokens',
    'user_prompt',
    'agent_type',
    'tool_use_id',
    'author',
    'monkey',
    'Content-Type',
    'format',
    'encoding',
    'keyboard',
    'stream',
  ])('%s is not secret', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('redactHeaders', () => {
  it('redacts secret names and keeps ordinary headers, order and repeated names', () => {
    const headers: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['x-api-key', CANARY],
      ['Cookie', CANARY],
      ['Accept', 'text/plain'],
    ];
    expect(redactHeaders(headers)).toEqual([
      ['Content-Type', 'application/json'],
      ['x-api-key', REDACTED],
      ['Cookie', REDACTED],
      ['Accept', 'text/plain'],
    ]);
  });

  it('canary: a response Location with access_token in its query or fragment', () => {
    const headers: [string, string][] = [
      ['Location', `https://app.example/cb?state=7&access_token=${CANARY}`],
      ['content-location', `/x#access_token=${CANARY}&token_type=bearer`],
    ];
    const redacted = redactHeaders(headers);
    expect(JSON.stringify(redacted)).not.toContain(CANARY);
    expect(redacted[0]).toEqual(['Location', `https://app.example/cb?state=7&access_token=${REDACTED}`]);
  });
});

describe('redactUrl', () => {
  it.each([
    [`https://user:${CANARY}@example.com/agent/run`, 'https://[redacted]@example.com/agent/run'],
    [`http://h/x?api_key=${CANARY}&format=json`, 'http://h/x?api_key=[redacted]&format=json'],
    [`http://h/x?format=json&access_token=${CANARY}#frag`, 'http://h/x?format=json&access_token=[redacted]#frag'],
    [`http://h/cb#access_token=${CANARY}&state=1`, 'http://h/cb#access_token=[redacted]&state=1'],
    [
      `http://h/x?X-Amz-Signature=${CANARY}&X-Amz-Credential=${CANARY}`,
      'http://h/x?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    ],
    [`http://h/x?%74oken=${CANARY}`, 'http://h/x?%74oken=[redacted]'],
    [`http://h/cb?code=${CANARY}`, 'http://h/cb?code=[redacted]'],
    [
      'http://127.0.0.1:8000/agent/run?format=xml&max_tokens=5',
      'http://127.0.0.1:8000/agent/run?format=xml&max_tokens=5',
    ],
    ['http://h/a@b/c', 'http://h/a@b/c'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactBody', () => {
  it.each([
    ['openai_api_key', { openai_api_key: CANARY, user_prompt: 'hi' }],
    ['anthropic_api_key', { config: { anthropic_api_key: CANARY } }],
    ['private_key', { signing: [{ private_key: CANARY }] }],
    ['nested credentials.key', { credentials: { key: CANARY, user: 'me' } }],
    ['key inside an object of any name', { provider: { key: CANARY } }],
    ['headers["x-api-key"]', { headers: { 'x-api-key': CANARY, accept: 'text/event-stream' } }],
    ['a secret whose value is an array', { api_keys: [CANARY, CANARY] }],
  ])('canary: JSON %s', (_name, body) => {
    const redacted = redactBody(JSON.stringify(body)) ?? '';
    expect(redacted).not.toContain(CANARY);
    expect(() => JSON.parse(redacted) as unknown).not.toThrow();
  });

  it('replaces only the secret values and keeps the rest of the text, formatting included', () => {
    const body = `{\n  "user_prompt": "hi",\n  "max_tokens": 5,\n  "auth": {"nested": 1},\n  "list": [{"password" : "${CANARY}"}, 3]\n}`;
    expect(redactBody(body)).toBe(
      `{\n  "user_prompt": "hi",\n  "max_tokens": 5,\n  "auth": "${REDACTED}",\n  "list": [{"password" : "${REDACTED}"}, 3]\n}`,
    );
  });

  it('judges an escaped key by what it means', () => {
    expect(redactBody(`{"\\u0074oken":"${CANARY}","a\\"b":"x"}`)).toBe(`{"\\u0074oken":"${REDACTED}","a\\"b":"x"}`);
  });

  it('canary: a form-encoded body, by Content-Type and by shape', () => {
    const form = `api_key=${CANARY}&password=${CANARY}&user=me`;
    expect(redactBody(form, 'application/x-www-form-urlencoded; charset=utf-8')).toBe(
      `api_key=${REDACTED}&password=${REDACTED}&user=me`,
    );
    expect(redactBody(form)).toBe(`api_key=${REDACTED}&password=${REDACTED}&user=me`);
  });

  it('walks a deeply nested body without recursion', () => {
    const depth = 200_000;
    const body = `${'{"a":'.repeat(depth)}{"token":"${CANARY}"}${'}'.repeat(depth)}`;
    const redacted = redactBody(body) ?? '';
    expect(redacted).not.toContain(CANARY);
    expect(redacted.length).toBe(body.length - CANARY.length + REDACTED.length);
  });

  it('returns an ordinary body unchanged, byte for byte', () => {
    const body = '{ "user_prompt": "my token is in the text",  "agent_type": "x" }';
    expect(redactBody(body)).toBe(body);
    expect(redactBody('plain text: no key names, no values')).toBe('plain text: no key names, no values');
    expect(redactBody(null)).toBeNull();
  });

  it('redacts a text that is neither JSON nor a form by key name, best effort (redact-bodies.test.ts has every shape)', () => {
    expect(redactBody('not json "token": 1')).toBe(`not json "token": ${REDACTED}`);
    expect(redactBody('plain text with token=1 and spaces')).toBe(`plain text with token=${REDACTED} and spaces`);
  });

  it('redactRequest applies all of them, taking the form Content-Type from the headers', () => {
    const request = redactRequest({
      method: 'POST',
      url: `http://u:${CANARY}@h/?token=${CANARY}`,
      headers: [
        ['Authorization', `Bearer ${CANARY}`],
        ['Content-Type', 'application/x-www-form-urlencoded'],
      ],
      body: `client_secret=${CANARY}`,
    });
    expect(JSON.stringify(request)).not.toContain(CANARY);
  });
});
