import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { decodeBytes, decodeLegs } from './session-decoder';
import { AGENT, decode, envelope, ERROR_FRAME, LINE_ENDINGS, META_INIT, rules, sse } from './session-decoder-testing';

// The session decoder's stream.* rules on hand-made streams; the upstream fixtures are in session-decoder.test.ts.

describe('stream.error-frame', () => {
  test.each(LINE_ENDINGS)(
    'reported after partial output, ends the leg without stream.missing-done (%s)',
    (_name, eol) => {
      const result = decode([META_INIT, envelope(), ERROR_FRAME], eol);
      expect(rules(result)).toEqual(['stream.error-frame']);
      expect(result.diagnostics.find((d) => d.rule === 'stream.error-frame')?.message).toBe(
        'Server error APIStatusError: Overloaded',
      );
      expect(result.envelopes.at(-1)).toMatchObject({
        control: 'error-frame',
        type: 'error_frame',
        delta: 'Overloaded',
        agent: AGENT,
        extras: { error: 'APIStatusError' },
      });
    },
  );

  it('is recognised as the very first event, before any format is known', () => {
    const result = decode([ERROR_FRAME]);
    expect(rules(result)).toEqual(['stream.error-frame']);
    expect(result.formats).toEqual([null]);
  });

  it('is located at its frame', () => {
    const result = decode([META_INIT, ERROR_FRAME]);
    expect(result.diagnostics.find((d) => d.rule === 'stream.error-frame')?.at).toMatchObject({ frame: 1 });
  });

  test.each([
    ['an envelope of type error', envelope({ type: 'error', final: true, delta: '{"type":"api_error"}' })],
    ['an object with error but no traceback', JSON.stringify({ error: 'x', message: 'y' })],
  ])('is not reported for %s', (_name, data) => {
    expect(rules(decode([META_INIT, data, '[DONE]']))).not.toContain('stream.error-frame');
  });
});

describe('[DONE] and stream.after-done', () => {
  test.each(LINE_ENDINGS)(
    '[DONE] last: a done control envelope stamped with the root agent, no finding (%s)',
    (_name, eol) => {
      const result = decode([META_INIT, envelope(), '[DONE]'], eol);
      expect(rules(result)).toEqual([]);
      expect(result.envelopes.at(-1)).toMatchObject({ control: 'done', type: '[DONE]', agent: AGENT, frame: 2 });
    },
  );

  test.each(LINE_ENDINGS)('an event after [DONE] is reported and still decoded (%s)', (_name, eol) => {
    const result = decode([META_INIT, '[DONE]', envelope({ delta: 'late' })], eol);
    expect(rules(result)).toEqual(['stream.after-done']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.after-done')?.at).toMatchObject({ frame: 2 });
    expect(result.envelopes.at(-1)).toMatchObject({ type: 'text', delta: 'late' });
  });

  test.each(LINE_ENDINGS)(
    '[DONE] as the last data line of an event: stream.done-joined, the lines before it decoded, [DONE] taken (%s)',
    (_name, eol) => {
      const last = envelope({ final: true, delta: '' });
      const result = decode([META_INIT, envelope(), `${last}${eol}data: [DONE]`], eol);
      expect(rules(result)).toEqual(['stream.done-joined']);
      expect(result.diagnostics.find((d) => d.rule === 'stream.done-joined')?.at).toMatchObject({ frame: 2 });
      expect(result.envelopes.slice(-2)).toMatchObject([
        { type: 'text', final: true, frame: 2 },
        { control: 'done', type: '[DONE]', frame: 2 },
      ]);
      expect(result.blocks.map((b) => b.status)).toEqual(['complete', 'complete']);
      expect(result.ends[0]?.stream).toMatchObject({ terminal: { event: '[DONE]' }, error: { frame: 2 } });
    },
  );

  it('an event of two data lines that does not end with a [DONE] line is not done-joined, nor is [DONE] alone', () => {
    const twoLines = `{"type":"text","agent":"${AGENT}",${'\n'}data: "final":false,"delta":"[DONE]"}`;
    const result = decode([META_INIT, twoLines, '[DONE]']);
    expect(rules(result)).toEqual([]);
    expect(result.envelopes.at(-2)).toMatchObject({ type: 'text', delta: '[DONE]' });
    expect(rules(decode([META_INIT, envelope(), `${envelope()}\ndata: [DONE] `]))).not.toContain('stream.done-joined');
  });

  it('a second [DONE] is an event after [DONE] too', () => {
    expect(rules(decode([META_INIT, '[DONE]', '[DONE]']))).toEqual(['stream.after-done']);
  });

  it('a stream of only [DONE] decodes without findings or format', () => {
    const result = decode(['[DONE]']);
    expect(rules(result)).toEqual([]);
    expect(result.formats).toEqual([null]);
  });
});

describe('stream.missing-done', () => {
  test.each(LINE_ENDINGS)('reported when the stream just stops (%s)', (_name, eol) => {
    const result = decode([META_INIT, envelope()], eol);
    expect(rules(result)).toEqual(['stream.missing-done']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.missing-done')?.at.byteStart).toBe(
      sse([META_INIT, envelope()], eol).length,
    );
  });

  it('reported per leg, with the leg in the location', () => {
    const result = decodeLegs([[{ bytes: sse([META_INIT, '[DONE]']) }], [{ bytes: sse([envelope()]) }]]);
    const missing = result.diagnostics.filter((d) => d.rule === 'stream.missing-done');
    expect(missing.map((d) => d.at.leg)).toEqual([1]);
  });

  it('not reported when an error frame ended the leg', () => {
    expect(rules(decode([META_INIT, ERROR_FRAME]))).not.toContain('stream.missing-done');
  });

  it('not reported for an empty response', () => {
    expect(rules(decodeBytes(new Uint8Array(0)))).toEqual([]);
  });
});

describe('format detection and stream.format-undetected', () => {
  const garbage = (n: number): string[] => Array.from({ length: n }, (_, i) => `garbage ${i}`);

  test.each(LINE_ENDINGS)(
    '8 undecidable events: reported once at the 8th, shown as generic events so nothing is lost (%s)',
    (_name, eol) => {
      const result = decode([...garbage(8), '[DONE]'], eol);
      expect(rules(result)).toEqual(['stream.format-undetected']);
      expect(result.diagnostics.find((d) => d.rule === 'stream.format-undetected')?.at.frame).toBe(7);
      expect(result.formats).toEqual(['json-events']);
      expect(result.detections).toEqual([{ by: 'fallback', data: 'text' }]);
      expect(result.envelopes.filter((e) => e.control === 'event').map((e) => e.delta)).toEqual(garbage(8));
    },
  );

  it('a stream that ends before the window is full is reported at its end, located at the first event', () => {
    const result = decode(garbage(3));
    // The fallback claims no terminator: no stream.missing-done for a stream it does not know.
    expect(rules(result)).toEqual(['stream.format-undetected']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.format-undetected')?.at.frame).toBe(0);
    expect(result.envelopes).toHaveLength(3);
  });

  it('not reported when a later event of the window tells the format; the earlier ones are decoded by it', () => {
    const result = decode(['not json', META_INIT, envelope(), '[DONE]']);
    expect(rules(result)).toEqual([]);
    expect(result.formats).toEqual(['json']);
    expect(result.envelopes.map((e) => e.control ?? e.type)).toEqual(['undecoded', 'meta_init', 'text', 'done']);
    expect(result.diagnostics.map((d) => d.rule)).toContain('json.invalid');
  });

  it('not reported when the format is given', () => {
    const result = decode(garbage(10), '\n', { format: 'json' });
    expect(rules(result)).toEqual(['stream.missing-done']);
    expect(result.formats).toEqual(['json']);
  });

  test.each([
    ['json', [META_INIT, envelope(), '[DONE]']],
    ['xml', ['<content-block-text>', 'hello', '</content-block-text>', '[DONE]']],
    [
      'raw',
      [
        `<meta_init data='{"format": "raw"}'></meta_init>`,
        '{"type":"message_start","message":{"id":"m"}}',
        '{"type":"message_stop"}',
        '[DONE]',
      ],
    ],
  ] as const)('detects %s from hand-made events', (format, events) => {
    const result = decode(events);
    expect(result.formats).toEqual([format]);
    expect(rules(result)).toEqual([]);
  });
});

describe('stream.format-mismatch', () => {
  const metaInit = (payload: string, final: boolean): string => envelope({ type: 'meta_init', final, delta: payload });

  test.each(LINE_ENDINGS)('a JSON stream whose chunked meta_init announces xml (%s)', (_name, eol) => {
    const payload = JSON.stringify({ format: 'xml', agent_uuid: AGENT, user_query: 'q' });
    const result = decode([metaInit(payload.slice(0, 15), false), metaInit(payload.slice(15), true), '[DONE]'], eol);
    expect(rules(result)).toEqual(['stream.format-mismatch']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.format-mismatch')).toMatchObject({
      severity: 'warning',
      at: { frame: 1 },
    });
  });

  it('not reported when the meta_init announces json', () => {
    expect(rules(decode([META_INIT, '[DONE]']))).toEqual([]);
  });
});

describe('stream.compressed-body', () => {
  // The gzip of "data: [DONE]\n\n" would do; any body starting with the signature is the case.
  const gzipped = Uint8Array.from([
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x49, 0x2c, 0x49, 0xb4, 0x52,
  ]);

  it.each(chunkings(gzipped).map((c) => [c.name, c.chunks] as const))(
    'names a gzip body that no Content-Encoding announced (%s)',
    (_name, chunks) => {
      const result = decodeLegs([chunks.map((bytes) => ({ bytes }))]);
      const found = result.diagnostics.filter((d) => d.rule === 'stream.compressed-body');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'error', at: { byteStart: 0, byteEnd: 2 } });
      expect(found[0]?.message).toMatch(/gzip signature, but no Content-Encoding/);
    },
  );

  it('must not trigger on a plain stream, nor on the signature later in a stream', () => {
    expect(rules(decode([META_INIT, '[DONE]']))).not.toContain('stream.compressed-body');
    const later = decodeBytes(Uint8Array.from([...encodeUtf8('data: x\n\n'), 0x1f, 0x8b]));
    expect(rules(later)).not.toContain('stream.compressed-body');
  });
});
