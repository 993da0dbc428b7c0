import { describe, expect, it } from 'vitest';
import { harEntryToLeg, summarizeHarEntry } from '../recording/har';
import { encodeUtf8 } from '../text/utf8';
import { buildHar, type HarExportLeg } from './har';

const sse =
  'data: {"type":"text","agent":"a","final":false,"delta":"The E"}\n\ndata: {"type":"text","agent":"a","final":true,"delta":"iffel Tower ✓"}\n\n';

const leg = (body: Uint8Array, change: Partial<HarExportLeg> = {}): HarExportLeg => ({
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8787/agent/run?format=json&x=a%20b',
    headers: [
      ['Content-Type', 'application/json'],
      ['Authorization', '[redacted]'],
    ],
    body: '{"user_prompt":"hi"}',
  },
  response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']] },
  startedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
  firstByteAt: Date.UTC(2026, 0, 2, 3, 4, 5) + 120,
  lastByteAt: Date.UTC(2026, 0, 2, 3, 4, 5) + 900,
  body,
  end: { reason: 'done' },
  stream: true,
  ...change,
});

const entries = (har: string): unknown[] => (JSON.parse(har) as { log: { entries: unknown[] } }).log.entries;

describe('HAR export', () => {
  it('writes a HAR 1.2 log that the HAR importer reads back to the same request, response, bytes and first-byte time', () => {
    const body = encodeUtf8(sse);
    const har = buildHar({ creator: { name: 'Agent Stream Inspector', version: '1.0.0' }, legs: [leg(body)] });
    const parsed = JSON.parse(har) as { log: { version: string; creator: unknown } };
    expect(parsed.log.version).toBe('1.2');
    const [first] = entries(har);
    expect(summarizeHarEntry(first, 0)).toMatchObject({
      method: 'POST',
      status: 200,
      isStream: true,
      hasBody: true,
      legEnd: { reason: 'done' },
      size: body.byteLength,
    });
    const back = harEntryToLeg(first);
    if (typeof back === 'string') throw new Error(back);
    expect(back.request).toEqual(leg(body).request);
    expect(back.response).toEqual(leg(body).response);
    expect(back.body).toEqual(body);
    expect(back.receivedAt).toBe(leg(body).firstByteAt);
    expect(first).toMatchObject({
      request: {
        queryString: [
          { name: 'format', value: 'json' },
          { name: 'x', value: 'a b' },
        ],
      },
      timings: { wait: 120, receive: 780 },
    });
  });

  it('keeps a body that is not UTF-8 as base64, byte for byte', () => {
    const body = new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0xc3, 0x0a, 0x0a]);
    const [first] = entries(buildHar({ creator: { name: 'x', version: '1' }, legs: [leg(body)] }));
    expect(first).toMatchObject({ response: { content: { encoding: 'base64' } } });
    const back = harEntryToLeg(first);
    if (typeof back === 'string') throw new Error(back);
    expect(back.body).toEqual(body);
  });

  it('writes one entry per leg, and a leg without a response or body (a failed connection)', () => {
    const failed = leg(new Uint8Array(0), {
      response: null,
      request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: [], body: null },
    });
    delete failed.firstByteAt;
    delete failed.lastByteAt;
    const list = entries(buildHar({ creator: { name: 'x', version: '1' }, legs: [leg(encodeUtf8(sse)), failed] }));
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({
      request: { method: 'GET', bodySize: 0 },
      response: { status: 0, content: { size: 0, text: '' } },
      timings: { wait: 0, receive: 0 },
    });
    expect((list[1] as { request: Record<string, unknown> }).request['postData']).toBeUndefined();
  });

  it('writes a valid date for a leg whose start time is unknown', () => {
    const [first] = entries(
      buildHar({ creator: { name: 'x', version: '1' }, legs: [leg(new Uint8Array(0), { startedAt: Number.NaN })] }),
    );
    expect((first as { startedDateTime: string }).startedDateTime).toBe('1970-01-01T00:00:00.000Z');
  });
});
