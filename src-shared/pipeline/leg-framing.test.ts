import { describe, expect, test } from 'vitest';
import type { Frame } from '../sse/types';
import { splitEvery } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { announcedLineFraming, createLegFramer, lineFramingOf, NDJSON_LINES, type LegFramer } from './leg-framing';

function framed(
  chunks: readonly Uint8Array[],
  headers?: readonly [string, string][],
): { framer: LegFramer; frames: Frame[] } {
  const frames: Frame[] = [];
  const framer = createLegFramer({ onFrame: (f) => frames.push(f), onDiagnostic: () => {} }, {});
  if (headers) framer.respond(headers);
  chunks.forEach((chunk, i) => framer.push(chunk, 10 * i));
  framer.end();
  return { framer, frames };
}

const V4 = encodeUtf8('0:"Hi"\nd:{"finishReason":"stop"}\n');
const SSE = encodeUtf8('data: {"type":"start"}\n\n');

describe('a leg is framed by lines only on positive evidence', () => {
  test('its first bytes are a data stream part code and a colon', () => {
    const { framer, frames } = framed([V4]);
    expect(framer.framing()).toBe('lines');
    expect(frames.map((f) => f.data)).toEqual(['0:"Hi"', 'd:{"finishReason":"stop"}']);
  });

  test('decided the same when the first bytes come one by one, with their chunk numbers and times kept', () => {
    const { framer, frames } = framed(splitEvery(V4, 1));
    expect(framer.framing()).toBe('lines');
    expect(frames[0]).toMatchObject({ data: '0:"Hi"', chunkFirst: 0, chunkLast: 6, receivedAt: 60 });
  });

  test('a BOM before the first part is skipped for the decision', () => {
    expect(framed([encodeUtf8('\uFEFF0:"Hi"\n')]).framer.framing()).toBe('lines');
  });

  test('the response header announces the wire whatever the first bytes', () => {
    const { framer, frames } = framed([encodeUtf8('oops\n0:"Hi"\n')], [['X-Vercel-AI-Data-Stream', 'v1']]);
    expect(framer.framing()).toBe('lines');
    expect(frames.map((f) => f.data)).toEqual(['oops', '0:"Hi"']);
  });

  test('must not: an SSE stream, text, a short leg, or text/event-stream even when the bytes look like parts', () => {
    expect(framed([SSE]).framer.framing()).toBe('sse');
    expect(framed([encodeUtf8('hello world\n')]).framer.framing()).toBe('sse');
    expect(framed([encodeUtf8('0')]).framer.framing()).toBe('sse');
    expect(framed([]).framer.framing()).toBe('sse');
    expect(framed([V4], [['content-type', 'text/event-stream; charset=utf-8']]).framer.framing()).toBe('sse');
    // A code the data stream does not have is no evidence.
    expect(framed([encodeUtf8('x:{}\n')]).framer.framing()).toBe('sse');
  });
});

const NDJSON = encodeUtf8('{"model":"llama3","message":{"content":"Hi"},"done":false}\r\n{"done":true}');

describe('NDJSON: one JSON value per line', () => {
  test('a body that starts with an object is framed by lines, at any chunking; a last line that parses is whole', () => {
    for (const chunks of [[NDJSON], splitEvery(NDJSON, 1)]) {
      const { framer, frames } = framed(chunks);
      expect(framer.framing()).toBe('lines');
      expect(frames.map((f) => f.data)).toEqual([
        '{"model":"llama3","message":{"content":"Hi"},"done":false}',
        '{"done":true}',
      ]);
    }
  });

  test('its media types announce it, with parameters and in any case; the bytes then need not start with "{"', () => {
    for (const type of [
      'application/x-ndjson',
      'application/x-ndjson; charset=utf-8',
      'Application/JSONL',
      'application/ndjson',
    ])
      expect(announcedLineFraming([['Content-Type', type]]), type).toBe(NDJSON_LINES);
    const { framer, frames } = framed([encodeUtf8('  \n[1]\n{"a":1}\n')], [['content-type', 'application/x-ndjson']]);
    expect(framer.framing()).toBe('lines');
    expect(frames.map((f) => f.data)).toEqual(['  ', '[1]', '{"a":1}']);
  });

  test('a last line cut inside its value is reported, its bytes kept in the raw stream', () => {
    const diagnostics: string[] = [];
    const framer = createLegFramer({ onFrame: () => {}, onDiagnostic: (d) => diagnostics.push(d.rule) }, {});
    framer.push(encodeUtf8('{"a":1}\n{"b":'), 0);
    expect(framer.end().endedInsideEvent).toBe(true);
    expect(diagnostics).toEqual(['stream.unterminated-line']);
  });

  test('must not: application/json (a one-off answer or a streamed array), or text/event-stream whatever the bytes', () => {
    expect(announcedLineFraming([['content-type', 'application/json']])).toBeUndefined();
    expect(announcedLineFraming([['content-type', 'application/jsonl-seq']])).toBeUndefined();
    expect(framed([NDJSON], [['content-type', 'text/event-stream']]).framer.framing()).toBe('sse');
  });
});

describe('the evidence helpers', () => {
  test('headers: the data stream header, any case; not the UI message stream header', () => {
    expect(announcedLineFraming([['x-vercel-ai-data-stream', 'V1 ']])).toBeDefined();
    expect(announcedLineFraming([['x-vercel-ai-ui-message-stream', 'v1']])).toBeUndefined();
    expect(announcedLineFraming([])).toBeUndefined();
  });

  test('first bytes', () => {
    expect(lineFramingOf('f:{"messageId":"m"}')).toBeDefined();
    expect(lineFramingOf('data: x')).toBeUndefined();
    expect(lineFramingOf('event: x')).toBeUndefined();
    expect(lineFramingOf('id: 1')).toBeUndefined();
  });
});
