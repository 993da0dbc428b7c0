import { describe, expect, it } from 'vitest';
import type { SavedRequest } from '../../src-shared/contract';
import { emptyForm, formToRequest } from './connect-form';
import { copyName, defaultRequestName, formFromSaved, formToTemplate, templateFromCurl, timeAgo } from './requests';

const saved: SavedRequest = {
  id: 'r1',
  name: 'Run',
  request: {
    url: '{{base_url}}/agent/run',
    method: 'POST',
    headers: [['Authorization', 'Bearer {{token}}']],
    body: { kind: 'json', text: '{"n": {{count}}}' },
    format: 'xml',
    inline: { mode: 'sentinel', tools: [] },
  },
  createdAt: 1,
  updatedAt: 1,
};

describe('saved requests and the connect form', () => {
  it('a saved request opens in the form and saves back unchanged, {{variables}} included', () => {
    const form = formFromSaved(saved);
    expect(form).toMatchObject({
      savedId: 'r1',
      url: '{{base_url}}/agent/run',
      format: 'xml',
      inline: 'sentinel',
      bodyKind: 'json',
    });
    const result = formToTemplate(form);
    expect(result.ok && result.template).toMatchObject({
      url: saved.request.url,
      headers: saved.request.headers,
      body: saved.request.body,
      format: 'xml',
      inline: { mode: 'sentinel' },
    });
  });

  it('a URL must still be http(s) or start with a variable; a JSON body with variables is checked by main', () => {
    expect(formToRequest({ ...emptyForm(), url: 'ftp://x', bodyKind: 'none' })).toMatchObject({
      ok: false,
      errors: { url: expect.stringContaining('{{variable}}') as string },
    });
    expect(formToRequest({ ...emptyForm(), url: '{{base_url}}/run', body: '{"n": {{count}}}' }).ok).toBe(true);
    expect(formToRequest({ ...emptyForm(), url: 'http://x', body: '{"n": oops}' })).toMatchObject({ ok: false });
  });

  it('the inline mode goes into the request with the default tool tags; auto sends none', () => {
    const sent = formToRequest({ ...emptyForm(), url: 'http://x', bodyKind: 'none', inline: 'xml' });
    expect(sent.ok && sent.request.inline).toEqual({
      mode: 'xml',
      tools: [
        { name: 'search', required: ['query'] },
        { name: 'extract', required: ['file_path'] },
        { name: 'query', required: [] },
      ],
    });
    const auto = formToRequest({ ...emptyForm(), url: 'http://x', bodyKind: 'none' });
    expect(auto.ok && 'inline' in auto.request).toBe(false);
  });

  it('a curl command becomes a template; a bad one says why', () => {
    const template = templateFromCurl(
      "curl -N http://h:1/run -H 'Authorization: Bearer {{token}}' -H 'Content-Type: application/json' -d '{\"a\":1}'",
    );
    expect(template).toMatchObject({
      url: 'http://h:1/run',
      method: 'POST',
      headers: [['Authorization', 'Bearer {{token}}']],
      body: { kind: 'json' },
    });
    expect(() => templateFromCurl("curl 'http://x")).toThrow(/Unclosed single quote/);
  });

  it('names: the title, else method, path and host; copies count up', () => {
    expect(defaultRequestName(saved.request)).toBe('POST /agent/run on {{base_url}}');
    expect(defaultRequestName({ ...saved.request, url: 'http://127.0.0.1:8787/agent/run?x=1' })).toBe(
      'POST /agent/run on 127.0.0.1:8787',
    );
    expect(defaultRequestName(saved.request, ' Mine ')).toBe('Mine');
    expect(copyName('Run', ['Run'])).toBe('Run copy');
    expect(copyName('Run', ['Run', 'Run copy'])).toBe('Run copy 2');
    expect(copyName('Run copy', ['Run copy', 'Run copy 2'])).toBe('Run copy 3');
  });

  it('timeAgo', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(timeAgo(now - 10_000, now)).toBe('just now');
    expect(timeAgo(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(timeAgo(now - 3 * 3600_000, now)).toBe('3 h ago');
    expect(timeAgo(now - 86400_000, now)).toBe('1 day ago');
    expect(timeAgo(Date.UTC(2025, 11, 1), now)).toBe('2025-12-01');
  });
});
