import { describe, expect, it } from 'vitest';
import { REDACTED, redactBody, redactHeaders, redactRequest, redactUrl } from './redact';

describe('redactHeaders', () => {
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
  ])('redacts %s', (name) => {
    expect(redactHeaders([[name, 'CANARY']])).toEqual([[name, REDACTED]]);
  });

  it('keeps ordinary headers, order and repeated names', () => {
    const headers: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['Accept', 'text/event-stream'],
      ['Cookie', 'a=1'],
      ['Accept', 'text/plain'],
    ];
    expect(redactHeaders(headers)).toEqual([
      ['Content-Type', 'application/json'],
      ['Accept', 'text/event-stream'],
      ['Cookie', REDACTED],
      ['Accept', 'text/plain'],
    ]);
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://user:CANARY@example.com/agent/run', 'https://[redacted]@example.com/agent/run'],
    ['https://CANARY@example.com', 'https://[redacted]@example.com'],
    ['http://h/x?api_key=CANARY&format=json', 'http://h/x?api_key=[redacted]&format=json'],
    ['http://h/x?format=json&access_token=CANARY#frag', 'http://h/x?format=json&access_token=[redacted]#frag'],
    ['http://h/cb#access_token=CANARY&state=1', 'http://h/cb#access_token=[redacted]&state=1'],
    ['http://h/x?X-Amz-Signature=CANARY&X-Amz-Credential=CANARY', 'http://h/x?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]'],
    ['http://h/x?%74oken=CANARY', 'http://h/x?%74oken=[redacted]'],
    ['http://127.0.0.1:8000/agent/run?format=xml', 'http://127.0.0.1:8000/agent/run?format=xml'],
    ['http://h/a@b/c', 'http://h/a@b/c'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactBody', () => {
  it('redacts credential fields anywhere in a JSON body and leaves others', () => {
    const body = JSON.stringify({ user_prompt: 'hi', max_tokens: 5, auth: { api_key: 'CANARY', nested: [{ password: 'CANARY' }] } });
    const redacted = redactBody(body) ?? '';
    expect(redacted).not.toContain('CANARY');
    expect(JSON.parse(redacted)).toEqual({ user_prompt: 'hi', max_tokens: 5, auth: { api_key: REDACTED, nested: [{ password: REDACTED }] } });
  });

  it('returns an ordinary body unchanged, byte for byte', () => {
    const body = '{ "user_prompt": "my token is in the text",  "agent_type": "x" }';
    expect(redactBody(body)).toBe(body);
    expect(redactBody('not json "token": 1')).toBe('not json "token": 1');
    expect(redactBody(null)).toBeNull();
  });

  it('redactRequest applies all three', () => {
    const request = redactRequest({ method: 'POST', url: 'http://u:CANARY@h/?token=CANARY', headers: [['Authorization', 'Bearer CANARY']], body: '{"token":"CANARY"}' });
    expect(JSON.stringify(request)).not.toContain('CANARY');
  });
});
