import { describe, expect, it, test } from 'vitest';
import { rulesOf } from '../../../src-main/testing/dialects';
import { utf8ByteLength } from '../../text/utf8';
import { UNDECODED_TYPE } from '../../envelope/types';
import { AGENT_BASE_ENVELOPE_TYPES, SEED_ENVELOPE_TYPES } from '../../envelope/vocabulary';
import { AGENT, decodeData, envelopeData } from '../../../src-main/testing/json-envelope-data';

// The JSON envelope decoder's rules on hand-made events; fixtures, fields and the contract are in decoder.test.ts.

describe('json.invalid', () => {
  it('reports the parser error with a preview and keeps the raw data in an undecoded control envelope', () => {
    const data = '{"type":"text","agent":"a","final":false,"delta":"cut';
    const { envelopes, diagnostics } = decodeData([data], { defaultAgent: 'root' });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.rule).toBe('json.invalid');
    expect(diagnostics[0]?.message).toMatch(/not valid JSON \(.*(Unterminated|JSON).*\)/);
    expect(diagnostics[0]?.message).toContain(JSON.stringify(data));
    expect(diagnostics[0]?.at).toEqual({ frame: 0, byteStart: 0, byteEnd: data.length + 8 });
    expect(envelopes).toEqual([
      // The agent its bytes name (agent-in-bytes.test.ts), not the session's default.
      { frame: 0, agent: 'a', type: UNDECODED_TYPE, final: true, delta: data, extras: {}, control: 'undecoded' },
    ]);
  });

  it('previews long garbage briefly but keeps all of it', () => {
    const data = `{${'x'.repeat(5000)}`;
    const { envelopes, diagnostics } = decodeData([data]);
    expect(diagnostics[0]?.message.length).toBeLessThan(400);
    expect(diagnostics[0]?.message).toContain('(5001 characters)');
    expect(envelopes[0]?.delta).toBe(data);
  });

  it('keeps decoding the events after a broken one', () => {
    const { envelopes } = decodeData(['{', envelopeData({ delta: 'ok' })]);
    expect(envelopes.map((e) => e.control ?? e.type)).toEqual(['undecoded', 'text']);
  });

  test.each([
    ['[1,2]', 'array'],
    ['"text"', 'string'],
    ['null', 'null'],
    ['42', 'number'],
  ])('JSON %s is not an envelope: envelope.missing-field, kept undecoded', (data, kind) => {
    const { envelopes, diagnostics } = decodeData([data]);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.missing-field']);
    expect(diagnostics[0]?.message).toContain(`JSON ${kind}, not an envelope object`);
    expect(envelopes).toEqual([expect.objectContaining({ control: 'undecoded', delta: data })]);
  });

  it('is not reported for valid JSON', () => {
    expect(rulesOf(decodeData([envelopeData({ delta: '{"nested": "json \\" text"}' })]))).not.toContain('json.invalid');
  });
});

describe('json.lone-surrogate', () => {
  test.each([
    ['a high surrogate alone', String.raw`"\ud83d"`, String.raw`\ud83d`],
    ['a low surrogate alone', String.raw`"\uDE00x"`, String.raw`\uDE00`],
    ['a pair in the wrong order', String.raw`"\uDE00\uD83D"`, String.raw`\uDE00`],
    ['a high surrogate followed by a non-surrogate escape', String.raw`"\uD83D\u0041"`, String.raw`\uD83D`],
    ['a surrogate after an escaped backslash', String.raw`"\\\uD83D"`, String.raw`\uD83D`],
  ])('reports %s', (_name, delta, escape) => {
    const data = `{"type":"text","agent":"a","final":false,"delta":${delta}}`;
    const { envelopes, diagnostics } = decodeData([data]);
    expect(rulesOf({ diagnostics })).toEqual(['json.lone-surrogate']);
    expect(diagnostics[0]?.message).toContain(`first: ${escape} at character ${data.indexOf(escape)}`);
    expect(envelopes).toHaveLength(1);
  });

  it('counts several in one event', () => {
    const { diagnostics } = decodeData([
      String.raw`{"type":"text","agent":"a","final":false,"delta":"\uD800 \uD801 \uDC02"}`,
    ]);
    expect(diagnostics[0]?.message).toContain('3 unpaired surrogate escapes');
  });

  test.each([
    ['a proper pair', String.raw`"\uD83D\uDE00"`],
    ['a literal backslash-u text', String.raw`"\\uD83D"`],
    ['a BMP escape', String.raw`"\u00e9\u2028"`],
    ['a raw astral character', '"😀"'],
  ])('does not report %s', (_name, delta) => {
    expect(decodeData([`{"type":"text","agent":"a","final":false,"delta":${delta}}`]).diagnostics).toEqual([]);
  });
});

describe('envelope.unknown-type', () => {
  it('reports an unknown type once, as info, and keeps every envelope of it', () => {
    const data = [
      envelopeData({ type: 'hook_progress', delta: 'a' }),
      envelopeData({ type: 'hook_progress', delta: 'b', final: true }),
      envelopeData({ type: 'other_hook' }),
    ];
    const { envelopes, diagnostics } = decodeData(data);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.unknown-type', 'envelope.unknown-type']);
    expect(diagnostics[0]?.message).toContain('"hook_progress"');
    expect(diagnostics[1]?.at.frame).toBe(2);
    expect(envelopes.map((e) => e.type)).toEqual(['hook_progress', 'hook_progress', 'other_hook']);
  });

  test.each([...SEED_ENVELOPE_TYPES, ...AGENT_BASE_ENVELOPE_TYPES])('does not report the known type %s', (type) => {
    expect(decodeData([envelopeData({ type, delta: '' })]).diagnostics).toEqual([]);
  });

  it('keeps agent_base control types with their payloads untouched', () => {
    const delta = '{"message":"retry","code":"x","details":null,"collapse_previous_assistant":true}';
    const { envelopes } = decodeData([envelopeData({ type: 'rollback', final: true, delta })]);
    expect(envelopes[0]).toMatchObject({ type: 'rollback', final: true, delta, extras: {} });
  });
});

describe('chunk budget', () => {
  /** A buffered envelope whose wire size is exactly `wireBytes`, its delta made of `unit`. */
  function envelopeOfSize(wireBytes: number, unit: string, type = 'tool_result'): string {
    const base = JSON.stringify({ type, agent: AGENT, final: true, delta: '', id: 'toolu_1', name: 'read' });
    const unitBytes = utf8ByteLength(JSON.stringify(unit)) - 2;
    const room = wireBytes - utf8ByteLength(base);
    const count = Math.floor(room / unitBytes);
    const pad = 'a'.repeat(room - count * unitBytes);
    return JSON.stringify({
      type,
      agent: AGENT,
      final: true,
      delta: unit.repeat(count) + pad,
      id: 'toolu_1',
      name: 'read',
    });
  }

  test.each([
    ['ASCII', 'a'],
    ['multi-byte UTF-8', 'é'],
    ['emoji', '😀'],
  ])('an envelope of exactly the budget in bytes (%s) is not reported', (_name, unit) => {
    const data = envelopeOfSize(2048, unit);
    expect(utf8ByteLength(data)).toBe(2048);
    expect(decodeData([data]).diagnostics).toEqual([]);
  });

  it('one byte over with an unescaped delta that did not fit → envelope.over-budget', () => {
    const data = envelopeOfSize(2049, 'a');
    const { diagnostics } = decodeData([data]);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.over-budget']);
    expect(diagnostics[0]?.message).toMatch(
      /is 2049 bytes, over the 2048-byte budget: its unescaped delta is \d+ bytes, more than the \d+ bytes .* did not chunk/,
    );
  });

  it('over only because quotes are escaped → envelope.over-budget-after-escaping, with the escaping cost', () => {
    // 1000 quotes: 1000 bytes unescaped (fits the ~1950-byte room), 2000 bytes escaped.
    const data = envelopeData({
      type: 'tool_result',
      final: true,
      delta: '"'.repeat(1000),
      id: 'toolu_1',
      name: 'read',
    });
    const { diagnostics } = decodeData([data]);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.over-budget-after-escaping']);
    expect(diagnostics[0]?.message).toContain('its unescaped delta (1000 bytes) fits');
    expect(diagnostics[0]?.message).toContain('JSON escaping adds 1000 bytes');
    expect(diagnostics[0]?.at.frame).toBe(0);
  });

  it('control characters inflate six-fold and still count as escaping', () => {
    const data = envelopeData({
      type: 'tool_call',
      final: true,
      delta: '\u0001'.repeat(1900),
      id: 'toolu_1',
      name: 'x',
    });
    expect(rulesOf(decodeData([data]))).toEqual(['envelope.over-budget-after-escaping']);
  });

  it('a text delta larger than the budget → envelope.over-budget, explained as never chunked upstream', () => {
    const { diagnostics } = decodeData([envelopeData({ type: 'text', delta: 'x'.repeat(3000) })]);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.over-budget']);
    expect(diagnostics[0]?.message).toContain('never chunks them');
  });

  it('a text delta over the wire budget only through escaping is still after-escaping', () => {
    expect(rulesOf(decodeData([envelopeData({ type: 'thinking', delta: '\n'.repeat(1500) })]))).toEqual([
      'envelope.over-budget-after-escaping',
    ]);
  });

  it('extras that leave no room for the delta → envelope.over-budget, explained as the degenerate budget', () => {
    const envelopeLog = JSON.stringify({ summary: 'y'.repeat(2100) });
    const { diagnostics } = decodeData([
      envelopeData({ type: 'tool_result', final: true, delta: 'ok', id: 't', name: 'n', envelope_log: envelopeLog }),
    ]);
    expect(rulesOf({ diagnostics })).toEqual(['envelope.over-budget']);
    expect(diagnostics[0]?.message).toContain('leave fewer than 64 for the delta');
  });

  it('honours options.chunkBudget', () => {
    const data = envelopeData({ delta: 'x'.repeat(600) });
    expect(decodeData([data]).diagnostics).toEqual([]);
    expect(rulesOf(decodeData([data], { chunkBudget: 512 }))).toEqual(['envelope.over-budget']);
  });
});

describe('stream.format-mismatch', () => {
  const metaInit = (payload: string, final: boolean, agent = AGENT): string =>
    JSON.stringify({ type: 'meta_init', agent, final, delta: payload });

  it('warns once the chunked meta_init announcing "xml" is complete, at its final envelope', () => {
    const payload = '{"format": "xml", "user_query": "hi", "agent_uuid": "a"}';
    const { diagnostics } = decodeData([
      metaInit(payload.slice(0, 20), false),
      envelopeData({ delta: 'x' }),
      metaInit(payload.slice(20), true),
    ]);
    expect(diagnostics).toEqual([
      {
        rule: 'stream.format-mismatch',
        message: expect.stringContaining('announces format "xml"') as unknown,
        at: expect.objectContaining({ frame: 2 }) as unknown,
      },
    ]);
  });

  it('reassembles interleaved meta_init payloads per agent', () => {
    const a = '{"format": "json", "agent_uuid": "a"}';
    const b = '{"format": "raw", "agent_uuid": "b"}';
    const { diagnostics } = decodeData([
      metaInit(a.slice(0, 10), false, 'a'),
      metaInit(b.slice(0, 10), false, 'b'),
      metaInit(a.slice(10), true, 'a'),
      metaInit(b.slice(10), true, 'b'),
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.message).toContain('"b" announces format "raw"');
    expect(diagnostics[0]?.at.frame).toBe(3);
  });

  test.each([
    ['announces json', '{"format":"json"}'],
    ['announces no format', '{"user_query":"hi"}'],
    ['does not parse (reconstruction reports it)', '{"format":"xml"'],
  ])('does not warn when the meta_init %s', (_name, payload) => {
    expect(decodeData([metaInit(payload, true)]).diagnostics).toEqual([]);
  });

  it('does not warn before the final chunk arrived', () => {
    expect(decodeData([metaInit('{"format":"xml"}', false)]).diagnostics).toEqual([]);
  });
});
