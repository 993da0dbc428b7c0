import { describe, expect, it, test } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8, utf8ByteLength } from '../../text/utf8';

/** A v4 data stream of these lines, each ended by `eol` (the last one too unless `cut`). */
function v4(lines: readonly string[], eol = '\n') {
  const result = decodeBytes(encodeUtf8(lines.map((l) => l + eol).join('')));
  const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
  return { ...result, rules: rulesOf(result), end };
}

const step = 'f:{"messageId":"msg-0"}';
const finish = 'd:{"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":2}}';

describe('the v4 data stream', () => {
  test.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('must not: a healthy stream with %s line endings is line-framed, decoded and done', (_name, eol) => {
    const result = v4([step, 'g:"Think."', '0:"Hel"', '0:"lo"', '2:[{"a":1}]', '0:"!"', finish], eol);
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual([]);
    expect(result.end.kind).toBe('done');
    // Consecutive text parts are one text block; a data part beside them does not end it.
    expect(result.blocks.map((b) => [b.kind, b.content.slice(0, 20)])).toEqual([
      ['thinking', 'Think.'],
      ['text', 'Hello!'],
      ['data', '[{"a":1}]'],
      ['message', expect.any(String)],
    ]);
  });

  it('a finish part with finishReason length: provider.response-incomplete, the stream incomplete', () => {
    const result = v4([
      step,
      '0:"Once upon a"',
      'd:{"finishReason":"length","usage":{"promptTokens":3,"completionTokens":4}}',
    ]);
    expect(result.rules).toEqual(['provider.response-incomplete']);
    expect(result.end.kind).toBe('incomplete');
  });

  it('a tool call between two texts ends the first: two text blocks, the call with its parsed args', () => {
    const result = v4([
      step,
      '0:"Let me check."',
      '9:{"toolCallId":"c","toolName":"get_weather","args":{"city":"Paris"}}',
      'a:{"toolCallId":"c","result":{"celsius":21}}',
      'e:{"finishReason":"tool-calls","usage":{"promptTokens":1,"completionTokens":1},"isContinued":false}',
      'f:{"messageId":"msg-1"}',
      '0:"21 °C."',
      finish,
    ]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.map((b) => b.kind)).toEqual(['text', 'tool_call', 'tool_result', 'text', 'message']);
    expect(result.blocks[1]).toMatchObject({ toolId: 'c', name: 'get_weather', parsed: { city: 'Paris' } });
  });

  it('a data part before the first step (merged StreamData): the step still names the message', () => {
    const result = v4(['2:["stream-data-value"]', step, '0:"Hi"', finish]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.map((b) => [b.kind, b.agent])).toEqual([
      ['data', ''],
      ['text', 'msg-0'],
      ['message', 'msg-0'],
    ]);
    expect(result.blocks.at(-1)?.parsed).toMatchObject({ id: 'msg-0' });
  });

  it('must not: data and annotations after the finish (StreamData appended in onFinish) are decoded, not reported', () => {
    const result = v4([step, '0:"Hi"', finish, '2:[{"saved":true}]', '8:[{"id":"a1"}]']);
    expect(result.rules).toEqual([]);
    expect(result.end.kind).toBe('done');
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['text', 'Hi'],
      ['message', expect.any(String)],
      ['data', '[{"saved":true}]'],
      ['message_annotations', '[{"id":"a1"}]'],
    ]);
  });

  it('text after the finish is reported, after a data part too', () => {
    const result = v4([step, '0:"Hi"', finish, '2:[1]', '0:"late"']);
    expect(result.rules).toEqual(['ai-sdk.after-finish']);
    expect(result.diagnostics[0]?.message).toContain('text in event 4');
  });

  it('an error part ends the stream by error', () => {
    const result = v4([step, '0:"a"', '3:"Rate limited"']);
    expect(result.rules).toEqual(['provider.api-error']);
    expect(result.end.kind).toBe('error');
  });

  it('no d: finish part: cut, truncated', () => {
    const result = v4([step, '0:"a"']);
    expect(result.rules).toEqual(['provider.missing-terminal']);
    expect(result.end.kind).toBe('truncated');
  });

  it("the statistics count each text part's UTF-8 bytes, whether its literal has escapes or not", () => {
    // The dialect hands the size of a text without escapes on from the line's byte count
    // (its line less `0:"` and `"`): off by a byte, the payload total differs.
    const texts = ['Hel', 'é数😀', String.raw`a\nb \"q\"`, String.raw`\u00e9\ud83d\ude00`, '', 'tail'];
    const result = v4([step, ...texts.map((text) => `0:"${text}"`), finish]);
    const decoded = texts.map((text) => JSON.parse(`"${text}"`) as string);
    const text = result.stats.byType.find((row) => row.type === 'text');
    expect(text?.payloadBytes).toBe(decoded.reduce((sum, t) => sum + utf8ByteLength(t), 0));
    expect(text?.envelopes).toBe(decoded.length + 1); // and the part's end
  });
});

describe('lines that are not parts', () => {
  test.each([
    ['a line without a code', 'Hello, world'],
    ['a value that is not JSON', '0:Hello'],
    ['a lone quote', '0:"'],
    ['a text with an unescaped quote inside', '0:"say "hi""'],
    ['a text part whose value is no string', '0:{"text":"a"}'],
    ['a finish part whose value is no object', 'd:"stop"'],
  ])('%s: reported, kept undecoded', (_name, line) => {
    const result = v4([step, '0:"a"', line, finish]);
    expect(result.rules).toEqual(['ai-sdk.bad-line']);
    expect(result.envelopes.some((e) => e.type === 'undecoded')).toBe(true);
  });

  it('a part code this version does not know: reported once, kept as an event', () => {
    const result = v4([step, 'x:{"future":1}', 'x:{"future":2}', finish]);
    expect(result.rules).toEqual(['ai-sdk.unknown-code']);
    expect(result.envelopes.filter((e) => e.type === 'part x')).toHaveLength(2);
  });

  it('a stream cut inside its last line: the line is reported lost, the stream truncated', () => {
    const bytes = encodeUtf8(`${step}\n0:"a"\nd:{"finishReas`);
    const result = decodeBytes(bytes);
    expect(rulesOf(result)).toEqual(['stream.unterminated-line', 'provider.missing-terminal']);
    const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
    expect(end.kind).toBe('truncated');
  });

  it('must not: a last line without its line ending that is a whole part is decoded', () => {
    const result = decodeBytes(encodeUtf8(`${step}\n0:"a"\n${finish}`));
    expect(rulesOf(result)).toEqual([]);
  });
});
