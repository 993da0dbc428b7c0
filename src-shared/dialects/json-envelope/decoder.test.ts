import { describe, expect, it, test } from 'vitest';
import type { Frame } from '../../sse/types';
import { rulesOf, runDialect, type DialectRun } from '../../../src-main/testing/dialects';
import { readFixture, readManifest } from '../../../src-main/testing/fixtures';
import { frameOf } from '../../testing/frames';
import { utf8ByteLength } from '../../text/utf8';
import { type DialectOptions } from '../types';
import { createJsonEnvelopeDecoder } from './decoder';
import { AGENT, decodeData, envelopeData } from '../../../src-main/testing/json-envelope-data';

// The rules on malformed or unusual envelopes (json.*, envelope.unknown-type, the chunk budget,
// stream.format-mismatch) are in decoder-rules.test.ts.

const decodeFrames = (frames: readonly Frame[], options?: DialectOptions): DialectRun =>
  runDialect(createJsonEnvelopeDecoder, frames, options);

/**
 * The frames of a fixture whose events are single `data:` lines separated by blank lines (all
 * JSON fixtures are: MANIFEST multi_line_data_events = 0), with their byte spans. The real
 * framer is tested on its own; this keeps the dialect's tests independent of it.
 */
function fixtureFrames(name: string): Frame[] {
  const text = new TextDecoder().decode(readFixture(name));
  const frames: Frame[] = [];
  let byte = 0;
  for (const event of text.split('\n\n')) {
    if (event === '') continue;
    if (!event.startsWith('data: ') || event.includes('\n'))
      throw new Error(`${name}: not a single data line: ${event.slice(0, 40)}`);
    const bytes = utf8ByteLength(event) + 2;
    frames.push(frameOf(event.slice('data: '.length), frames.length, { byteStart: byte, byteEnd: byte + bytes }));
    byte += bytes;
  }
  return frames;
}

const OVER_BUDGET_RULES = new Set(['envelope.over-budget', 'envelope.over-budget-after-escaping']);

const manifest = readManifest();
const jsonFixtures = Object.values(manifest).filter((entry) => entry.kind === 'json');

describe('JSON envelope fixtures', () => {
  test.each(jsonFixtures.map((entry) => [entry.file, entry] as const))(
    '%s decodes as the manifest counts',
    (file, entry) => {
      const { frames: content, envelopes, diagnostics } = decodeFrames(fixtureFrames(file));

      expect(envelopes).toHaveLength(content.length);
      const byType: Record<string, number> = {};
      const byAgent: Record<string, number> = {};
      for (const e of envelopes) {
        byType[e.type] = (byType[e.type] ?? 0) + 1;
        byAgent[e.agent] = (byAgent[e.agent] ?? 0) + 1;
      }
      expect(byType).toEqual(entry.envelope_types);
      expect(byAgent).toEqual(entry.agents);

      // Over-budget findings of both kinds, per envelope type; the router's error frame
      // (listed under "null") is not an envelope and never reaches the dialect.
      const { null: errorFrames = 0, ...expectedByType } = entry.over_2048_by_type;
      const overBudget: Record<string, number> = {};
      for (const d of diagnostics.filter((d) => OVER_BUDGET_RULES.has(d.rule))) {
        const type = envelopes.find((e) => e.frame === d.at.frame)?.type ?? '?';
        overBudget[type] = (overBudget[type] ?? 0) + 1;
      }
      expect(overBudget).toEqual(expectedByType);
      expect(Object.values(overBudget).reduce((a, b) => a + b, 0)).toBe(entry.json_lines_over_2048 - errorFrames);

      // The real servers chunk correctly: every overrun is the escaping blind spot.
      expect(diagnostics.filter((d) => d.rule !== 'envelope.over-budget-after-escaping')).toEqual([]);
    },
  );

  test.each(jsonFixtures.map((entry) => entry.file))(
    '%s: every envelope re-serialises to its exact wire data (nothing dropped or changed)',
    (file) => {
      const { frames: content, envelopes } = decodeFrames(fixtureFrames(file));
      for (const [i, e] of envelopes.entries()) {
        expect(e.frame).toBe(content[i]?.seq);
        expect(e.control).toBeUndefined();
        expect(JSON.stringify({ type: e.type, agent: e.agent, final: e.final, delta: e.delta, ...e.extras })).toBe(
          content[i]?.data,
        );
      }
    },
  );

  it('keeps agent_base extras verbatim: envelope_log stays a JSON string on every tool_result chunk', () => {
    const { envelopes } = decodeFrames(fixtureFrames('json_stream.agent_base.json.sse'));
    const results = envelopes.filter((e) => e.type === 'tool_result');
    expect(results.length).toBeGreaterThan(0);
    for (const e of results) {
      expect(typeof e.extras['envelope_log']).toBe('string');
      expect(Object.keys(e.extras)).toEqual(['id', 'name', 'envelope_log']);
    }
  });

  it('keeps an agent_base citation delta as the JSON object string it is, with no extras', () => {
    const { envelopes } = decodeFrames(fixtureFrames('probe_citations.agent_base.json.sse'));
    const citations = envelopes.filter((e) => e.type === 'citation');
    expect(citations).toHaveLength(3);
    for (const c of citations) {
      expect(c.extras).toEqual({});
      expect(JSON.parse(c.delta)).toHaveProperty('cited_text');
    }
  });

  it('reports no format mismatch for the agent_base meta_init chunked over several envelopes', () => {
    const run = decodeFrames(fixtureFrames('frontend_tools_resume.agent_base.json.sse'));
    expect(run.envelopes.filter((e) => e.type === 'meta_init' && !e.final).length).toBeGreaterThan(0);
    expect(rulesOf(run)).not.toContain('stream.format-mismatch');
  });
});

describe('envelope fields', () => {
  it('passes the four base fields through and every other key as an extra, in wire order', () => {
    const data =
      '{"type":"tool_result_image","agent":"a","final":false,"delta":"","id":"t1","name":"shot","src":"/agent/a/images/1","media_type":"image/png","n":1.5,"nested":{"x":[1,null]}}';
    const { envelopes, diagnostics } = decodeData([data]);
    expect(diagnostics).toEqual([]);
    expect(envelopes).toEqual([
      {
        frame: 0,
        agent: 'a',
        type: 'tool_result_image',
        final: false,
        delta: '',
        extras: {
          id: 't1',
          name: 'shot',
          src: '/agent/a/images/1',
          media_type: 'image/png',
          n: 1.5,
          nested: { x: [1, null] },
        },
      },
    ]);
    expect(Object.keys(envelopes[0]?.extras ?? {})).toEqual(['id', 'name', 'src', 'media_type', 'n', 'nested']);
  });

  it('keeps a "__proto__" key as a plain extra instead of replacing the prototype', () => {
    const { envelopes } = decodeData([
      '{"type":"text","agent":"a","final":false,"delta":"x","__proto__":{"polluted":true}}',
    ]);
    const extras = envelopes[0]?.extras ?? {};
    expect(Object.getPrototypeOf(extras)).toBe(Object.prototype);
    expect(Object.keys(extras)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test.each([
    ['type', 'type ""', { type: '' }],
    ['agent', 'the session\'s agent "root"', { agent: 'root' }],
    ['final', 'false', { final: false }],
    ['delta', 'an empty delta', { delta: '' }],
  ] as const)('missing "%s" → envelope.missing-field, decoded with %s', (field, assumed, expected) => {
    const object: Record<string, unknown> = { type: 'text', agent: AGENT, final: true, delta: 'hi' };
    delete object[field];
    const { envelopes, diagnostics } = decodeData([JSON.stringify(object)], { defaultAgent: 'root' });
    expect(diagnostics).toEqual([
      {
        rule: 'envelope.missing-field',
        message: expect.stringContaining(`assumed ${assumed}`) as unknown,
        at: { frame: 0, byteStart: 0, byteEnd: expect.any(Number) as unknown },
      },
    ]);
    expect(envelopes).toHaveLength(1);
    expect(envelopes[0]).toMatchObject(expected);
    expect(envelopes[0]?.control).toBeUndefined();
  });

  test.each([
    ['type', 7, { type: '7' }],
    ['type', { a: 1 }, { type: '' }],
    ['agent', null, { agent: 'root' }],
    ['agent', 42, { agent: '42' }],
    ['final', 'true', { final: true }],
    ['final', 0, { final: false }],
    ['delta', 12, { delta: '12' }],
    ['delta', { files: [] }, { delta: '{"files":[]}' }],
    ['delta', null, { delta: '' }],
  ] as const)('"%s": %j → envelope.field-type, decoded as %j', (field, value, expected) => {
    const object: Record<string, unknown> = { type: 'text', agent: AGENT, final: false, delta: 'hi', [field]: value };
    const { envelopes, diagnostics } = decodeData([JSON.stringify(object)], { defaultAgent: 'root' });
    expect(rulesOf({ diagnostics })).toEqual(['envelope.field-type']);
    expect(diagnostics[0]?.message).toContain(`"${field}" must be a`);
    expect(diagnostics[0]?.message).toContain('assumed');
    expect(envelopes[0]).toMatchObject(expected);
  });

  it('reports nothing for a complete, well-typed envelope', () => {
    expect(decodeData([envelopeData({ delta: 'hello' })]).diagnostics).toEqual([]);
  });
});

describe('decoder contract', () => {
  it('has the id json and ignores end() with nothing pending', () => {
    const decoder = createJsonEnvelopeDecoder({ onEnvelope: () => undefined, onDiagnostic: () => undefined });
    expect(decoder.id).toBe('json');
    expect(() => decoder.end()).not.toThrow();
  });

  test.each(['', ' ', '\u0000', '{"type":', '{"a":1}{"b":2}', '\uFFFD\uFFFD', '[DONE'])(
    'never throws on garbage %j and always emits one envelope',
    (data) => {
      const { envelopes } = decodeData([data]);
      expect(envelopes).toHaveLength(1);
    },
  );
});
