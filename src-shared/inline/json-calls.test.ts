import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { createInlineDocument, parseSegments } from './collect';
import { MAX_JSON_HOLD } from './json-calls';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions, type Segment } from './types';

const json: InlineOptions = { ...DEFAULT_INLINE_OPTIONS, mode: 'json' };
const brief = (text: string) =>
  parseSegments(text, json).segments.map((s) => ({
    type: s.type,
    content: s.content,
    ...(Object.keys(s.params).length ? { params: s.params } : {}),
    ...(Object.keys(s.metadata).length ? { metadata: s.metadata } : {}),
    ...(s.complete ? {} : { complete: false }),
  }));
const rules = (text: string) => parseSegments(text, json).findings.map((f) => f.rule);

describe('the json strategy (issue 23 §2.3)', () => {
  it('reads a bare call, with the text around it', () => {
    expect(brief('Checking. {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}} Done.')).toEqual([
      { type: 'text', content: 'Checking. ' },
      {
        type: 'tool_call',
        content: '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}',
        params: { city: 'Paris', days: '3' },
        metadata: { tool_name: 'get_weather' },
      },
      { type: 'text', content: ' Done.' },
    ]);
  });

  it('reads `args` and `parameters`, arguments given as a JSON string, and the name after the arguments', () => {
    expect(brief('{"name": "a", "args": {"x": 1}}')[0]?.params).toEqual({ x: '1' });
    expect(brief('{"name": "a", "parameters": {"x": [1]}}')[0]?.params).toEqual({ x: '[1]' });
    expect(brief('{"name": "a", "arguments": "{\\"x\\": \\"y\\"}"}')[0]?.params).toEqual({ x: 'y' });
    expect(brief('{"arguments": {"x": true}, "name": "late"}')[0]).toMatchObject({
      type: 'tool_call',
      metadata: { tool_name: 'late' },
      params: { x: 'true' },
    });
  });

  it('reads a <tool_call> wrapper and a fenced block, and swallows their markup', () => {
    expect(brief('<tool_call>\n{"name": "s", "arguments": {}}\n</tool_call>\nok')).toEqual([
      { type: 'tool_call', content: '{"name": "s", "arguments": {}}', metadata: { tool_name: 's' } },
      { type: 'text', content: '\nok' },
    ]);
    expect(
      brief('```json\n[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]\n```').map((s) => s.metadata),
    ).toEqual([{ tool_name: 'a' }, { tool_name: 'b' }]);
  });

  it('handles braces, brackets and quotes inside strings', () => {
    expect(brief('{"name": "s", "arguments": {"q": "} ] { [ \\" \\\\"}}')[0]?.params).toEqual({ q: '} ] { [ " \\' });
  });

  it('keeps JSON that is not a tool call as text, to its end', () => {
    for (const text of [
      '{"name": "Bob", "age": 3}',
      '{"name": "x"}',
      '{"foo": {"name": "x", "arguments": {}}}',
      '[1, 2]',
      '{"name": 5, "arguments": {}}',
      '```python\nprint({"name": "x", "arguments": {}})\n```',
      'a {b} c',
    ]) {
      expect(brief(text)).toEqual([{ type: 'text', content: text }]);
      expect(rules(text)).toEqual([]);
    }
  });

  it('keeps an object cut off at the end as a tool call flagged incomplete', () => {
    expect(brief('{"name": "read", "arguments": {"path": "a.ts", "n": 4')).toEqual([
      {
        type: 'tool_call',
        content: '{"name": "read", "arguments": {"path": "a.ts", "n": 4',
        params: { path: 'a.ts', n: '4' },
        metadata: { tool_name: 'read' },
        complete: false,
      },
    ]);
    expect(rules('{"name": "read", "arguments": {"path": "a.ts"')).toEqual(['inline.unclosed']);
    expect(brief('{"name": "rea')).toEqual([{ type: 'tool_call', content: '{"name": "rea', complete: false }]);
  });

  it('ends a call that turns into invalid JSON there, incomplete, and reads the rest as text', () => {
    expect(brief('{"name": "t", "arguments": {oops}')).toEqual([
      { type: 'tool_call', content: '{"name": "t", "arguments": {', metadata: { tool_name: 't' }, complete: false },
      { type: 'text', content: 'oops}' },
    ]);
    expect(rules('{"name": "t", "arguments": {oops}')).toEqual(['inline.unclosed']);
  });

  it('reports a <tool_call> that is never closed, and an array element with no name', () => {
    expect(rules('<tool_call>{"name": "s", "arguments": {}}')).toEqual(['inline.unclosed']);
    expect(rules('[{"name": "a", "arguments": {}}, {"arguments": {}}]')).toEqual(['inline.missing-param']);
  });

  it('survives deep nesting and unbalanced input without recursion or loss', () => {
    for (const text of [
      '['.repeat(100_000),
      '{"name": "a", "arguments": ' + '['.repeat(100_000),
      '{'.repeat(50_000) + '}'.repeat(50_000),
      '"'.repeat(10_000) + '{"'.repeat(10_000),
    ]) {
      const { segments } = parseSegments(text, json);
      expect(segments.map((s) => s.content).join('').length).toBeGreaterThan(0);
      expect(
        segments
          .filter((s) => s.type === 'text')
          .map((s) => s.content)
          .join('').length + segments.filter((s) => s.type !== 'text').reduce((n, s) => n + s.content.length, 0),
      ).toBeLessThanOrEqual(text.length);
    }
    const deep = '{"name": "a", "arguments": ' + '['.repeat(100_000);
    expect(
      parseSegments(deep, json)
        .segments.map((s) => s.content)
        .join(''),
    ).toBe(deep);
  });

  it(`holds at most ${MAX_JSON_HOLD} characters of an undecided candidate, then shows it as text`, () => {
    const long = `{"arguments": {"text": "${'x'.repeat(MAX_JSON_HOLD + 100)}"}, "name": "late"}`;
    const doc = createInlineDocument(json);
    let most = 0;
    for (let i = 0; i < long.length; i += 97) {
      doc.parser.push(long.slice(i, i + 97));
      most = Math.max(most, doc.parser.held());
    }
    doc.parser.end();
    expect(most).toBeLessThanOrEqual(MAX_JSON_HOLD + 1);
    expect(doc.segments.map((s) => [s.type, s.content])).toEqual([['text', long]]);
  });
});

/** Pieces a model's text is made of, for the generated texts of the holdback property. */
const PIECES = [
  'Let me check. ',
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  '<tool_call>\n{"name": "s", "args": {"q": "} {"}}\n</tool_call>',
  '```json\n[{"name": "a", "arguments": {}}, {"name": "b", "parameters": {"n": 1}}]\n```',
  '{"name": "Bob", "age": 3}',
  '[1, {"a": 2}]',
  ' a {b} <c> `d` ',
  '```python\nx = {"name": "n", "arguments": {}}\n```',
  '{"name": "bad", "arguments": {nope}',
  '\n',
];

function generated(seed: number): string {
  const next = seededRandom(seed);
  let text = '';
  for (let n = 0; n < 8; n++) text += PIECES[Math.floor(next() * PIECES.length)] as string;
  // Half the texts stop in the middle of something.
  return next() < 0.5 ? text.slice(0, Math.floor(text.length * (0.5 + next() / 2))) : text;
}

/** What a live view shows of a segment: never retracted, only grown. */
const shown = (s: Segment) => ({ id: s.id, type: s.type, metadata: s.metadata, start: s.start, content: s.content });

describe('holdback property of the json strategy: nothing shown is ever taken back', () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('generated text %i, at every character', (seed) => {
    const text = generated(seed);
    const final = parseSegments(text, json).segments.map(shown);
    const doc = createInlineDocument(json);
    for (const c of text) {
      doc.parser.push(c);
      const live = doc.segments.map(shown);
      expect(live.length).toBeLessThanOrEqual(final.length);
      live.forEach((segment, k) => {
        const end = final[k];
        expect({ ...segment, content: '' }).toEqual({ ...end, content: '' });
        expect(end?.content.startsWith(segment.content)).toBe(true);
      });
    }
    doc.parser.end();
    expect(doc.segments.map(shown)).toEqual(final);
    // And the final segments are the text itself: a text segment is exactly its span, a tool
    // call starts with its object, spans do not overlap (nothing is shown twice).
    let last = 0;
    for (const segment of doc.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(last);
      if (segment.type === 'text') expect(segment.content).toBe(text.slice(segment.start, segment.end));
      else expect(text.slice(segment.start, segment.start + segment.content.length)).toBe(segment.content);
      last = segment.end;
    }
  });
});
