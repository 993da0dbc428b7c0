import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { providerFixturePath, readFixture } from '../../src-main/testing/fixtures';
import { decodeBytes } from '../pipeline/session-decoder';
import { ENVELOPE_FIELDS } from './envelope-fields';
import { compileFilter, UnavailableFieldError } from './evaluate';
import { envelopeFilter, envelopeReader, parseAssertion, parseFilter, printExpression } from './index';
import { envelopeSubjects } from './subjects';
import { checkAssertion } from './assertions';
import { pushEnvelope } from '../reconstruct/envelope-list';

const multiAgent = envelopeSubjects(decodeBytes(readFixture('multi_agent.json.sse')));
const errorMidstream = envelopeSubjects(decodeBytes(readFixture('error_midstream.json.sse')));

const select = (source: string, subjects = multiAgent): number[] =>
  subjects.filter(envelopeFilter(source)).map((s) => s.envelope.seq);

describe('a flat chain', () => {
  it('reads a flat chain of any length as one level: 129 terms and more parse, select and print back', () => {
    for (const op of ['&&', '||']) {
      const terms = Array.from({ length: 200 }, (_, i) => (i === 0 ? 'type == "text"' : `seq != ${i + 100_000}`));
      const source = terms.join(` ${op} `);
      const tree = parseFilter(source);
      expect(tree).toMatchObject({ kind: op === '&&' ? 'and' : 'or', operands: expect.any(Array) as unknown });
      expect(tree.kind === 'and' || tree.kind === 'or' ? tree.operands.length : 0).toBe(200);
      expect(printExpression(tree)).toBe(source);
      expect(select(source)).toEqual(op === '&&' ? select('type == "text"') : multiAgent.map((s) => s.envelope.seq));
    }
    const assertion = Array.from({ length: 129 }, () => 'count(final) > 0').join(' && ');
    expect(
      checkAssertion(
        parseAssertion(assertion),
        { status: { kind: 'done', reason: '[DONE] received' }, subjects: multiAgent },
        envelopeReader(),
      ).pass,
    ).toBe(true);
  });
});

describe('block.content is matched once per block', () => {
  it("reads a block's content once for all its envelopes, again only when the block grew", () => {
    const deltas = Array.from(
      { length: 3000 },
      (_, i) => `data: {"type":"text","agent":"a","final":false,"delta":"part ${i} "}\n\n`,
    ).join('');
    const subjects = envelopeSubjects(
      decodeBytes(
        new TextEncoder().encode(
          `${deltas}data: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n`,
        ),
      ),
    );
    const block = subjects[0]!.block!;
    const content = block.content;
    let reads = 0;
    Object.defineProperty(block, 'content', { get: () => (reads++, content) });
    for (const [filter, expected] of [
      ['block.content matches "part 2999 $"', 3001],
      ['block.content != "x"', 3001],
      ['block.content in ["x"]', 0],
    ] as const) {
      reads = 0;
      expect(select(filter, subjects)).toHaveLength(expected);
      expect(reads, filter).toBe(1);
    }
    const match = envelopeFilter('block.content contains "part 3000"');
    expect(match(subjects[0]!)).toBe(false);
    Object.defineProperty(block, 'content', { get: () => `${content}part 3000 ` });
    pushEnvelope(block, 3002);
    expect(match(subjects[0]!)).toBe(true);
  });
});

describe('evaluation over a decoded fixture (multi_agent.json.sse)', () => {
  it('names agents as the UI does and filters on them', () => {
    const agents = new Set(multiAgent.map((s) => s.agentName));
    expect(agents).toEqual(new Set(['main', 'sub 1', 'sub 2']));
    const sub1 = select('agent == "sub 1"');
    expect(sub1.length).toBeGreaterThan(0);
    expect(sub1.every((seq) => multiAgent[seq]!.agentName === 'sub 1')).toBe(true);
    const uuid = multiAgent[sub1[0]!]!.envelope.agent;
    expect(select(`agent == ${JSON.stringify(uuid)}`)).toEqual(sub1);
    expect(select('agent in ["sub 1", "sub 2"]').length).toBe(select('agent != "main"').length);
  });

  it('compares types, names, booleans, numbers, blocks and text', () => {
    const calls = select('type == "tool_call" && final');
    expect(calls.map((seq) => multiAgent[seq]!.envelope.extras['name']).sort()).toEqual([
      'add',
      'multiply',
      'spawn_subagent',
      'spawn_subagent',
    ]);
    expect(select('name == "add"').length).toBeGreaterThan(0);
    expect(select('name contains "sub"')).toEqual(select('name == "spawn_subagent"'));
    expect(select('name matches "^(add|multiply)$"')).toEqual(select('name in ["add", "multiply"]'));
    expect(select('name matches "(?i)^ADD$"')).toEqual(select('name == "add"'));
    expect(select('bytes > 0').length).toBe(multiAgent.length);
    expect(select('dialect == "json" && leg == 0').length).toBe(multiAgent.length);
    const textBlocks = select('block.kind == "text" && final');
    expect(textBlocks.length).toBeGreaterThan(0);
    expect(select('"SPAWN_subagent"')).toEqual(select('name == "spawn_subagent" || delta contains "spawn_subagent"'));
    // An absent field fails every comparison, != too.
    expect(select('type == "text" && name != "add"')).toEqual([]);
    expect(select('type == "text" && !(name == "add")').length).toBe(select('type == "text"').length);
    expect(select('extras.name == "add"')).toEqual(select('name == "add"'));
  });

  it('finds findings by rule and by ordered severity', () => {
    const errors = select('finding.severity == "error"', errorMidstream);
    expect(errors.length).toBeGreaterThan(0);
    expect(select('finding.rule == "stream.error-frame"', errorMidstream)).toEqual(
      errors.filter((seq) => errorMidstream[seq]!.findings.some((f) => f.rule === 'stream.error-frame')),
    );
    expect(select('finding.severity >= "warning"', errorMidstream).length).toBeGreaterThanOrEqual(errors.length);
    expect(select('finding.severity < "error" && finding.severity > "error"', errorMidstream)).toEqual([]);
    expect(select('type == "error_frame"', errorMidstream)).toEqual(select('control == "error-frame"', errorMidstream));
  });

  it('runs a catastrophic pattern in linear time on a large value', () => {
    const subject = { ...multiAgent[0]!, envelope: { ...multiAgent[0]!.envelope, delta: 'a'.repeat(200_000) } };
    expect(envelopeFilter('delta matches "(a+)+b"')(subject)).toBe(false);
    expect(envelopeFilter('delta matches "(a|aa)*$"')(subject)).toBe(true);
  });

  it('reports a field the reader cannot provide (the renderer then asks main)', () => {
    const reader = { field: (name: string) => (name === 'type' ? ENVELOPE_FIELDS.field('type') : undefined) };
    expect(() => compileFilter(parseFilter('type == "text"'), reader)).not.toThrow();
    expect(() => compileFilter(parseFilter('type == "text" && delta contains "x"'), reader)).toThrow(
      UnavailableFieldError,
    );
    expect(() => compileFilter(parseFilter('"x"'), reader)).toThrow(UnavailableFieldError);
    expect(envelopeReader().field('block.kind')?.type).toBe('string');
  });
});

describe('unified event fields (provider dialects)', () => {
  it('selects envelopes by the unified event their provider event maps to', () => {
    const bytes = new Uint8Array(readFileSync(providerFixturePath('openai-responses/builtin-tools.sse')));
    const subjects = envelopeSubjects(decodeBytes(bytes));
    const statuses = select('event.family == "stream.tool_call_status"', subjects);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses).toEqual(
      subjects.filter((s) => s.envelope.unified?.family === 'stream.tool_call_status').map((s) => s.envelope.seq),
    );
    expect(select('event.tool == "web_search" && event.phase == "completed"', subjects).length).toBeGreaterThan(0);
    // Agent dialects carry no unified event: the fields are absent, so nothing matches.
    expect(select('event.family matches "."')).toEqual([]);
  });
});

describe('assertions', () => {
  const status = { kind: 'done', reason: '[DONE] received' } as const;
  const subjects = envelopeSubjects(decodeBytes(readFixture('multi_agent.json.sse')));

  it("read the envelopes only when they are about envelopes (building them is a recording's whole cost)", () => {
    let reads = 0;
    const input = {
      status,
      get subjects() {
        reads++;
        return subjects;
      },
    };
    expect(
      checkAssertion(parseAssertion('status == "done" || status == "error"'), input, envelopeReader()),
    ).toMatchObject({ pass: true });
    expect(reads).toBe(0);
    expect(
      checkAssertion(parseAssertion('status == "done" && some type == "text"'), input, envelopeReader()),
    ).toMatchObject({ pass: true });
    expect(reads).toBeGreaterThan(0);
    expect(checkAssertion(parseAssertion('count(type == "text") == 0'), input, envelopeReader())).toMatchObject({
      pass: false,
    });
  });
});
