import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../text/utf8';
import { headerLine } from './format';
import { convertItem, payloadToSse } from './items';
import { sniffSource, type SniffResult } from './sniff';

const sniff = (text: string | Uint8Array, complete = true): SniffResult =>
  sniffSource(typeof text === 'string' ? encodeUtf8(text) : text, complete);
const ENVELOPE = '{"type":"text","agent":"a","final":false,"delta":"hi"}';
const EVENT = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}';

describe('sniffSource', () => {
  it.each([
    ['a recording', headerLine({ createdAt: '', t: 0, redacted: true }), 'recording', undefined],
    ['an SSE capture', 'data: {"a":1}\n\n', 'sse', undefined],
    ['an SSE capture starting with a comment', ': keep-alive\n\ndata: x\n\n', 'sse', undefined],
    ['an SSE capture with a BOM and CRLF', '\ufeff\r\nevent: message\r\ndata: x\r\n\r\n', 'sse', undefined],
    ['an SSE capture of a data line without colon', 'data\n\n', 'sse', undefined],
    ['NDJSON envelopes', `${ENVELOPE}\n${ENVELOPE}\n`, 'ndjson-envelopes', 'ndjson'],
    [
      "this inspector's envelope export, which starts with its first leg's head line",
      `{"exportedLeg":0,"startedAt":0,"request":null,"response":null,"stream":true,"end":{"reason":"done"}}\n${ENVELOPE}\n`,
      'ndjson-envelopes',
      'ndjson',
    ],
    ['NDJSON Anthropic events', `${EVENT}\n`, 'anthropic-events', 'ndjson'],
    [
      "NDJSON of a provider's chunks (an SDK test suite's .chunks.txt)",
      '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n',
      'ndjson-events',
      'ndjson',
    ],
    ['NDJSON of objects no dialect claims, as JSON events', '{"name":"x"}\n{"name":"y"}', 'ndjson-events', 'ndjson'],
    ['a JSON array of envelopes', `[\n  ${ENVELOPE}\n]`, 'json-envelopes', 'json-array'],
    ['a JSON array of Anthropic events', `[${EVENT}]`, 'anthropic-events', 'json-array'],
    ['a JSON array of API responses (arrays of events)', `[[${EVENT}],[${EVENT}]]`, 'anthropic-events', 'json-array'],
    ['a JSON array starting with a string', `["[DONE]", ${ENVELOPE}]`, 'json-envelopes', 'json-array'],
    ['an empty JSON array', '[]', 'json-envelopes', 'json-array'],
    [
      'a streamed JSON array of Gemini responses',
      '[{"candidates": [{"content": {"parts": [{"text": "Hi"}]}}]}\r\n,\r\n',
      'json-stream',
      undefined,
    ],
    [
      'a JSON object pretty-printed (a whole response body: one event)',
      '{\n  "name": "x"\n}\n',
      'json-stream',
      undefined,
    ],
    [
      "an API's error body pretty-printed (a failed request saved instead of its stream)",
      '\ufeff{\r\n  "error": {\r\n    "code": 400,\r\n    "message": "LogProbs is not supported in streaming mode"\r\n  }\r\n}',
      'json-stream',
      undefined,
    ],
    ['a HAR file', '{\n  "log": {\n    "version": "1.2",\n    "entries": []\n  }\n}', 'har', undefined],
    ['a one-line HAR file', '{"log":{"version":"1.2","entries":[]}}', 'har', undefined],
  ])('recognises %s', (_name, text, kind, container) => {
    const result = sniff(text);
    expect(result).toMatchObject({ ok: true, kind });
    if (result.ok) expect(result.container).toBe(container);
  });

  it('takes a file holding only the start of a recording header for a torn recording', () => {
    expect(sniff('{"format":"agent-stream-inspector-rec')).toMatchObject({ ok: true, kind: 'recording' });
    expect(sniff('{"format":"agent-stream-inspector-rec', false)).toEqual({ ok: false, needMore: true });
    expect(sniff('{"format"').ok).toBe(false);
  });

  it('reads the HTTP head of a curl -i capture as the response', () => {
    const text = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\r\ndata: x\n\n';
    const result = sniff(text);
    expect(result).toEqual({
      ok: true,
      kind: 'sse',
      bodyOffset: text.indexOf('data:'),
      response: {
        status: 200,
        statusText: 'OK',
        headers: [
          ['content-type', 'text/event-stream'],
          ['cache-control', 'no-cache'],
        ],
      },
    });
  });

  it('reads a curl -i capture of a JSON array body as a streamed array, and of a JSON object as no stream', () => {
    const array = 'HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n \n[{"candidates":[]}\n]';
    expect(sniff(array)).toMatchObject({ ok: true, kind: 'json-stream', bodyOffset: array.indexOf(' \n[') });
    const object = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"error":"no"}';
    const refused = sniff(object);
    expect(refused.ok).toBe(false);
    if (!refused.ok && !refused.needMore) expect(refused.message).toContain('not an event stream');
  });

  it('asks for more when the first line does not fit', () => {
    expect(sniff(`{"type":"text","agent":"a","final":false,"delta":"${'x'.repeat(100)}`, false)).toEqual({
      ok: false,
      needMore: true,
    });
    expect(sniff(`[{"type":"text","agent":"a","final":false,"delta":"${'x'.repeat(100)}`, false)).toEqual({
      ok: false,
      needMore: true,
    });
  });

  it.each([
    [
      'binary garbage',
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      'first bytes were binary data',
    ],
    ['plain text', 'hello world\nthis is not a stream\n', 'first bytes were text that is none of these'],
    ['an HTML page', '<!doctype html><html>', 'first bytes were an HTML page'],
    ['a JSON array of numbers', '[1, 2, 3]', 'a JSON array, but its items are not an envelope'],
    ['a JSON array of other objects', '[{"name":"x"}]', 'its first item is not an envelope'],
    ['a truncated JSON object line', '{"type":"text","agent":"a"', 'its first line is not a JSON object'],
    [
      "an API's error body, pretty-printed on its own way (a failed request saved instead of its stream)",
      '{"error": {\n    "code": 400,\n    "message": "LogProbs is not supported in streaming mode"\n  }\n}\n',
      'one JSON object over several lines, a whole response body rather than a stream of events: its `error` member says the request failed',
    ],
    ['an object whose lines are no JSON', '{"name":\n "x"}\n', 'a whole response body rather than a stream of events)'],
    [
      'an HTTP response with an HTML body',
      'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\n\r\n<html>',
      'status 502, content-type text/html',
    ],
    ['an empty file', '', 'the file is empty'],
    ['blank lines only', '\n\n  \n', 'only blank lines'],
  ])('rejects %s with a clear message', (_name, input, message) => {
    const result = sniff(input);
    expect(result.ok).toBe(false);
    if (!result.ok && !result.needMore) expect(result.message).toContain(message);
  });

  it('names what was expected', () => {
    const result = sniff('hello');
    expect(!result.ok && !result.needMore && result.message).toMatch(
      /^not a recording, SSE capture, NDJSON\/JSON of envelopes or Anthropic events, NDJSON of stream events, a streamed JSON array of API responses, or HAR: first bytes were text that is none of these$/,
    );
    expect(result).not.toMatchObject({ message: expect.stringContaining('hello') as unknown });
  });
});

describe('convertItem', () => {
  it('sends an object as written and a string as the message itself', () => {
    expect(convertItem(ENVELOPE)).toMatchObject({ ok: true, shape: 'envelope', payloads: [ENVELOPE] });
    expect(convertItem(EVENT)).toMatchObject({ ok: true, shape: 'anthropic-event', payloads: [EVENT] });
    expect(convertItem('"[DONE]"')).toMatchObject({ ok: true, shape: 'string', payloads: ['[DONE]'] });
    expect(convertItem('{"error":"ValueError","message":"m","traceback":"t"}')).toMatchObject({
      ok: true,
      shape: 'error-frame',
    });
    expect(convertItem('{"type":"error","agent":"a","final":true,"delta":"x"}')).toMatchObject({
      ok: true,
      shape: 'envelope',
    });
  });

  it('flattens an array of events', () => {
    expect(convertItem(`[${EVENT}, "[DONE]"]`)).toMatchObject({
      ok: true,
      shape: 'anthropic-event',
      payloads: [EVENT, '[DONE]'],
    });
  });

  it('passes broken JSON objects through for the decoder to report, and skips what cannot be an event', () => {
    expect(convertItem('{"type": tru}')).toMatchObject({ ok: true, shape: 'unparsed', payloads: ['{"type": tru}'] });
    expect(convertItem('42')).toEqual({ ok: false, reason: 'a number' });
    expect(convertItem('null')).toEqual({ ok: false, reason: 'null' });
    expect(convertItem('\u0000\u0001')).toEqual({ ok: false, reason: 'not JSON' });
    expect(convertItem('[DONE]')).toMatchObject({ ok: true, payloads: ['[DONE]'] });
    expect(convertItem('<meta_init data="{}"></meta_init>')).toMatchObject({
      ok: true,
      payloads: ['<meta_init data="{}"></meta_init>'],
    });
    expect(convertItem('[1]')).toEqual({ ok: false, reason: 'an array holding a number' });
  });
});

describe('payloadToSse', () => {
  it.each([
    ['one line', 'x', 'data: x\n\n'],
    ['a leading space kept', ' x', 'data:  x\n\n'],
    ['LF', 'a\nb', 'data: a\ndata: b\n\n'],
    ['CR', 'a\rb', 'data: a\ndata: b\n\n'],
    ['CRLF', 'a\r\nb', 'data: a\ndata: b\n\n'],
  ])('%s', (_name, payload, sse) => {
    expect(new TextDecoder().decode(payloadToSse(payload))).toBe(sse);
  });
});
