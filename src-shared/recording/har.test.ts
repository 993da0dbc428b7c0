import { describe, expect, it } from 'vitest';
import { describeHarEntry, harEntryToLeg, summarizeHarEntry } from './har';

const entry = (content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  startedDateTime: '2026-03-01T12:00:00.000Z',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8000/agent/run',
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    postData: { mimeType: 'application/json', text: '{"user_prompt":"hi"}' },
  },
  response: {
    status: 200,
    statusText: 'OK',
    headers: [{ name: 'content-type', value: 'text/event-stream' }],
    content: { size: 9, mimeType: 'text/event-stream', ...content },
  },
  timings: { blocked: -1, dns: 1, connect: 2, send: 3, wait: 40, receive: 100 },
  ...extra,
});

describe('HAR entries', () => {
  it('summarises an entry for the chooser', () => {
    const summary = summarizeHarEntry(entry({ text: 'data: x\n\n' }), 3);
    expect(summary).toEqual({
      index: 3,
      method: 'POST',
      url: 'http://127.0.0.1:8000/agent/run',
      status: 200,
      mimeType: 'text/event-stream',
      size: 9,
      isStream: true,
      hasBody: true,
      startedDateTime: '2026-03-01T12:00:00.000Z',
    });
    expect(describeHarEntry(summary)).toBe('#3 POST http://127.0.0.1:8000/agent/run → 200 text/event-stream, 9 bytes');
  });

  it.each([
    ['plain text', { text: 'data: é\n\n' }],
    ['base64', { text: Buffer.from('data: é\n\n').toString('base64'), encoding: 'base64' }],
    [
      'base64 without padding, wrapped',
      {
        text: Buffer.from('data: é\n\n')
          .toString('base64')
          .replace(/=+$/, '')
          .replace(/(.{4})/g, '$1\n'),
        encoding: 'base64',
      },
    ],
  ])('reads a %s body as the exact bytes', (_name, content) => {
    const leg = harEntryToLeg(entry(content));
    expect(typeof leg).not.toBe('string');
    if (typeof leg === 'string') return;
    expect(Buffer.from(leg.body).toString()).toBe('data: é\n\n');
    expect(leg.request).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:8000/agent/run',
      headers: [['Content-Type', 'application/json']],
      body: '{"user_prompt":"hi"}',
    });
    expect(leg.response).toEqual({ status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] });
    expect(leg.receivedAt).toBe(Date.parse('2026-03-01T12:00:00.000Z') + 46);
  });

  it('rejects a body marked base64 that is not', () => {
    expect(harEntryToLeg(entry({ text: '%%%%', encoding: 'base64' }))).toContain('not valid base64');
  });

  it('takes the content type from the headers when mimeType is missing, and notes a missing body', () => {
    const e = entry({ mimeType: '' });
    const summary = summarizeHarEntry(e, 0);
    expect(summary.isStream).toBe(true);
    expect(summary.hasBody).toBe(false);
    expect(describeHarEntry(summary)).toContain('no body saved');
  });
});
