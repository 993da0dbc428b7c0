import { describe, expect, it, test } from 'vitest';
import type { DiagnosticInit } from '../diagnostics/types';
import type { Frame } from '../sse/types';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { createLegFramer, framingOfHead } from './leg-framing';
import { createJsonArrayFramer } from './json-array-framer';

function frame(chunks: readonly Uint8Array[], insideArray = false) {
  const frames: Frame[] = [];
  const diagnostics: DiagnosticInit[] = [];
  const framer = createJsonArrayFramer(
    { onFrame: (f) => frames.push(f), onDiagnostic: (d) => diagnostics.push(d) },
    { insideArray },
  );
  for (const chunk of chunks) framer.push(chunk, 0);
  const summary = framer.end();
  return { frames, diagnostics, summary };
}

const whole = (text: string, insideArray = false) => frame([encodeUtf8(text)], insideArray);
const shape = (result: ReturnType<typeof frame>) => ({
  frames: result.frames.map((f) => [f.seq, f.byteStart, f.byteEnd, f.data]),
  diagnostics: result.diagnostics.map((d) => [d.rule, d.at]),
  cut: result.summary.endedInsideEvent,
});

/** Gemini's body without alt=sse: pretty-printed elements, CRLF line endings, the comma on a line of its own. */
const GEMINI_ARRAY =
  '[{\r\n  "candidates": [{"content": {"parts": [{"text": "Hel"}]}}]\r\n}\r\n,\r\n{\r\n  "candidates": [{"content": {"parts": [{"text": "lo \\"]}, ü"}]}, "finishReason": "STOP"}]\r\n}\r\n]';

describe('the JSON array framer', () => {
  it('frames each element as soon as it is complete, with the text exactly as sent, tiling the body', () => {
    const result = whole(GEMINI_ARRAY);
    expect(result.frames.map((f) => JSON.parse(f.data) as unknown)).toEqual([
      { candidates: [{ content: { parts: [{ text: 'Hel' }] } }] },
      { candidates: [{ content: { parts: [{ text: 'lo "]}, ü' }] }, finishReason: 'STOP' }] },
    ]);
    const [first, second] = result.frames;
    expect(first?.byteStart).toBe(0);
    expect(second?.byteStart).toBe(first?.byteEnd);
    expect(first?.data.startsWith('{\r\n  "candidates"')).toBe(true);
    expect(result.diagnostics).toEqual([]);
    expect(result.summary).toMatchObject({ frames: 2, endedInsideEvent: false });
  });

  test.each(chunkings(encodeUtf8(`\uFEFF ${GEMINI_ARRAY}`)))(
    'the same frames at every chunking: $name',
    ({ chunks }) => {
      expect(shape(frame(chunks))).toEqual(shape(whole(`\uFEFF ${GEMINI_ARRAY}`)));
    },
  );

  it('dispatches an element before the rest of the body arrives (live)', () => {
    const frames: Frame[] = [];
    const framer = createJsonArrayFramer({ onFrame: (f) => frames.push(f), onDiagnostic: () => {} });
    framer.push(encodeUtf8('[{"a":1}'), 5);
    expect(frames.map((f) => [f.data, f.receivedAt])).toEqual([['{"a":1}', 5]]);
  });

  it('several arrays one after the other are one stream of elements; strings and numbers are elements too', () => {
    const result = whole('[{"a":1},"x"]\n[2, true]');
    expect(result.frames.map((f) => f.data)).toEqual(['{"a":1}', '"x"', '2', 'true']);
    expect(result.diagnostics).toEqual([]);
  });

  it('json-array.cut-element: the stream ends inside an element, which is not dispatched', () => {
    const result = whole('[{"a":1},{"b":"cut');
    expect(result.frames.map((f) => f.data)).toEqual(['{"a":1}']);
    expect(result.diagnostics.map((d) => [d.rule, d.at])).toEqual([
      ['json-array.cut-element', { byteStart: 8, byteEnd: 18 }],
    ]);
    expect(result.summary.endedInsideEvent).toBe(true);
  });

  it('json-array.unclosed: complete elements (or none), no closing ]; the finding spans the array', () => {
    expect(whole('[{"a":1}\r\n').diagnostics.map((d) => [d.rule, d.at])).toEqual([
      ['json-array.unclosed', { byteStart: 0, byteEnd: 10 }],
    ]);
    expect(whole('[').diagnostics.map((d) => d.rule)).toEqual(['json-array.unclosed']);
  });

  it('json-array.malformed: junk between elements is skipped in one finding, a missing comma and ,] are said', () => {
    const result = whole('[{"a":1} xx ,{"b":2}{"c":3},]');
    expect(result.frames.map((f) => f.data)).toEqual(['{"a":1}', 'xx', '{"b":2}', '{"c":3}']);
    expect(result.diagnostics.map((d) => d.rule)).toEqual([
      'json-array.malformed',
      'json-array.malformed',
      'json-array.malformed',
    ]);
    const junk = whole('[{"a":1}]} junk');
    expect(junk.diagnostics.map((d) => [d.rule, d.at])).toEqual([
      ['json-array.malformed', { byteStart: 9, byteEnd: 15 }],
    ]);
  });

  it('must not: a complete array, empty or not, with any whitespace, raises nothing', () => {
    for (const text of ['[]', ' [ ] ', '[\r\n{"a":[1,{"b":"]"}]}\r\n]\r\n', '["\\\\", "\\""]'])
      expect(whole(text).diagnostics, text).toEqual([]);
  });

  it('sse.invalid-utf8 inside an element, at the bad byte', () => {
    const bytes = new Uint8Array([...encodeUtf8('[{"t":"'), 0xff, ...encodeUtf8('"}]')]);
    const result = frame([bytes]);
    expect(result.diagnostics.map((d) => [d.rule, d.at])).toEqual([
      ['sse.invalid-utf8', { frame: 0, byteStart: 7, byteEnd: 8 }],
    ]);
    expect(result.frames[0]?.data).toBe('{"t":"\uFFFD"}');
  });

  it('one frame framed again from its own bytes (its leading comma included) gives its data', () => {
    const [, second] = whole(GEMINI_ARRAY).frames;
    const bytes = encodeUtf8(GEMINI_ARRAY).subarray(second?.byteStart, second?.byteEnd);
    expect(whole(new TextDecoder().decode(bytes), true).frames.map((f) => f.data)).toEqual([second?.data]);
  });
});

describe('a leg framed as a JSON array', () => {
  test.each([
    ['a JSON array', '[{"a":1}]', 'json-array'],
    ['a JSON array after a BOM and blank lines', '\uFEFF\r\n [', 'json-array'],
    ['SSE', 'data: x\n\n', 'sse'],
    ['an SSE comment', ': ok\n', 'sse'],
    ['a JSON object: NDJSON, one value per line', '{"a":1}', 'lines'],
    ['only whitespace so far', ' \r\n', undefined],
  ])('%s → %s', (_name, text, expected) => {
    expect(framingOfHead(encodeUtf8(text))).toBe(expected);
  });

  it('decides once the first bytes do, however the chunks cut them, and frames every chunk held until then', () => {
    for (const { name, chunks } of chunkings(encodeUtf8('\uFEFF\r\n[{"a":1},{"b":2}]'))) {
      const frames: Frame[] = [];
      const framer = createLegFramer({ onFrame: (f) => frames.push(f), onDiagnostic: () => {} }, {});
      for (const chunk of chunks) framer.push(chunk, 0);
      framer.end();
      expect(framer.framing(), name).toBe('json-array');
      expect(
        frames.map((f) => f.data),
        name,
      ).toEqual(['{"a":1}', '{"b":2}']);
    }
  });

  it('an SSE body goes to the SSE framer unchanged', () => {
    const frames: Frame[] = [];
    const framer = createLegFramer({ onFrame: (f) => frames.push(f), onDiagnostic: () => {} }, {});
    framer.push(encodeUtf8('\r\ndata: [1]\r\n\r\n'), 0);
    expect(framer.end().frames).toBe(1);
    expect([framer.framing(), frames[0]?.data]).toEqual(['sse', '[1]']);
  });
});

describe('a body that is a JSON object pretty-printed: a whole response body, not a stream', () => {
  const OBJECT = '{\r\n  "error": {\r\n    "code": 400,\r\n    "message": "}"\r\n  }\r\n}';

  it('is one frame, the object as written, with json-array.object-body once; objects one after another, a frame each', () => {
    expect(shape(whole(`${OBJECT}\r\n`))).toEqual({
      frames: [[0, 0, OBJECT.length, OBJECT]],
      diagnostics: [['json-array.object-body', { byteStart: 0, byteEnd: 1 }]],
      cut: false,
    });
    const two = whole(`${OBJECT}\n${OBJECT}\n`);
    expect(two.frames.map((f) => f.data)).toEqual([OBJECT, OBJECT]);
    expect(two.diagnostics.map((d) => d.rule)).toEqual(['json-array.object-body']);
  });

  it('cut inside it, or followed by what is no object: said as for an array body, nothing decoded of it', () => {
    expect(whole(OBJECT.slice(0, 20)).diagnostics.map((d) => d.rule)).toEqual([
      'json-array.object-body',
      'json-array.cut-element',
    ]);
    expect(whole(`${OBJECT} x`).diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringContaining('data after the object closed'),
    );
  });

  test.each([
    ['`{` alone on its line', '{\n  "a": 1\n}', 'json-object'],
    ['`{` then spaces, CRLF', '\uFEFF {  \r\n"a": 1}', 'json-object'],
    ['must not: NDJSON', '{"a":1}\n{"a":2}\n', 'lines'],
    ['must not: NDJSON with a space after the brace', '{ "a": 1 }\n', 'lines'],
    ['undecided until what follows the brace arrives', '{  ', undefined],
  ])('%s → %s', (_name, text, expected) => {
    expect(framingOfHead(encodeUtf8(text))).toBe(expected);
  });

  it('a leg of it is framed so however the chunks cut it', () => {
    for (const { name, chunks } of chunkings(encodeUtf8(`${OBJECT}\n`))) {
      const frames: Frame[] = [];
      const framer = createLegFramer({ onFrame: (f) => frames.push(f), onDiagnostic: () => {} }, {});
      for (const chunk of chunks) framer.push(chunk, 0);
      framer.end();
      expect([framer.framing(), ...frames.map((f) => f.data)], name).toEqual(['json-object', OBJECT]);
    }
  });
});
