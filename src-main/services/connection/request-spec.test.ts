import { describe, expect, it } from 'vitest';
import { buildRequest } from './request-spec';

describe('building a request from the connect form', () => {
  it('refuses what cannot be sent, saying what to fix', () => {
    const base = { url: 'http://127.0.0.1:1/x', method: 'POST', headers: [] as [string, string][] };
    expect(() => buildRequest({ ...base, url: 'ftp://x/y' })).toThrow(/Only http and https/);
    expect(() => buildRequest({ ...base, url: 'localhost:8000' })).toThrow(
      /Only http and https URLs can be opened \(got localhost:\)/,
    );
    expect(() => buildRequest({ ...base, url: '/agent/run' })).toThrow(/not a valid URL/);
    expect(() => buildRequest({ ...base, headers: [['Bad Name', 'v']] })).toThrow(/Header name 'Bad Name'/);
    expect(() => buildRequest({ ...base, headers: [['X', 'a\r\nInjected: 1']] })).toThrow(/line break/);
    expect(() => buildRequest({ ...base, body: { kind: 'json', text: '{nope' } })).toThrow(/not valid JSON/);
    expect(() => buildRequest({ ...base, method: 'GET', body: { kind: 'raw', text: 'x' } })).toThrow(
      /GET request cannot carry a body/,
    );
    expect(() => buildRequest({ ...base, reconnect: { maxAttempts: 3 } })).toThrow(
      /re-sending a POST would start a new agent run/,
    );
  });

  it('keeps an explicit Content-Type and skips empty header rows', () => {
    const { spec } = buildRequest({
      url: 'http://h/agent/run',
      method: 'POST',
      headers: [
        ['', ''],
        ['content-type', 'application/vnd.x+json'],
      ],
      body: { kind: 'json', text: '{}' },
    });
    expect(spec.headers).toEqual([['content-type', 'application/vnd.x+json']]);
  });
});
