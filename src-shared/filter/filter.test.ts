import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { providerFixturePath, readFixture } from '../../src-main/testing/fixtures';
import { decodeBytes } from '../pipeline/session-decoder';
import { seededRandom } from '../testing/chunking';
import type { Expr, Literal, Term } from './ast';
import { completeFilter } from './complete';
import { caretLines, describeFilterError, FilterError } from './errors';
import { ENVELOPE_FIELDS } from './envelope-fields';
import { compileFilter, UnavailableFieldError } from './evaluate';
import { envelopeFilter, envelopeReader, parseAssertion, parseFilter, printExpression } from './index';
import { MAX_DEPTH } from './parser';
import { envelopeSubjects } from './subjects';
import { checkAssertion } from './assertions';
import { pushEnvelope } from '../reconstruct/envelope-list';

const multiAgent = envelopeSubjects(decodeBytes(readFixture('multi_agent.json.sse')));
const errorMidstream = envelopeSubjects(decodeBytes(readFixture('error_midstream.json.sse')));

const select = (source: string, subjects = multiAgent): number[] =>
  subjects.filter(envelopeFilter(source)).map((s) => s.envelope.seq);

function errorOf(source: string, parse: (s: string) => unknown = parseFilter): FilterError {
  try {
    parse(source);
  } catch (error) {
    if (error instanceof FilterError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${source}`);
}

describe('parsing', () => {
  it('reads comparisons, lists, flags, text, precedence and parentheses', () => {
    expect(parseFilter('type == "text" && !final || agent in ["sub 1", "sub 2"]')).toEqual({
      kind: 'or',
      operands: [
        {
          kind: 'and',
          operands: [
            {
              kind: 'compare',
              op: '==',
              left: { kind: 'field', name: 'type' },
              right: { kind: 'string', value: 'text' },
            },
            { kind: 'not', operand: { kind: 'flag', field: 'final' } },
          ],
        },
        {
          kind: 'in',
          left: { kind: 'field', name: 'agent' },
          items: [
            { kind: 'string', value: 'sub 1' },
            { kind: 'string', value: 'sub 2' },
          ],
        },
      ],
    });
    expect(parseFilter("!type == 'text'")).toEqual({
      kind: 'not',
      operand: {
        kind: 'compare',
        op: '==',
        left: { kind: 'field', name: 'type' },
        right: { kind: 'string', value: 'text' },
      },
    });
    expect(parseFilter('time >= 1.5s')).toEqual({
      kind: 'compare',
      op: '>=',
      left: { kind: 'field', name: 'time' },
      right: { kind: 'duration', value: 1.5, unit: 's' },
    });
    expect(parseFilter('"eiffel"')).toEqual({ kind: 'text', value: 'eiffel' });
  });

  it('reads assertions: some, none, count, first/last, before, status, every agent', () => {
    expect(printExpression(parseAssertion('some type == "tool_call" && name == "add"'))).toBe(
      'some type == "tool_call" && name == "add"',
    );
    expect(parseAssertion('count(type == "text") >= 3')).toEqual({
      kind: 'compare',
      op: '>=',
      left: {
        kind: 'count',
        of: {
          kind: 'compare',
          op: '==',
          left: { kind: 'field', name: 'type' },
          right: { kind: 'string', value: 'text' },
        },
      },
      right: { kind: 'number', value: 3 },
    });
    expect(printExpression(parseAssertion('first(type=="text").time<2s'))).toBe('first(type == "text").time < 2s');
    expect(
      printExpression(parseAssertion('(some final) && (none finding.severity == "error") || status == "done"')),
    ).toBe('(some final) && (none finding.severity == "error") || status == "done"');
    expect(printExpression(parseAssertion('every agent: some type == "meta_final"'))).toBe(
      'every agent: some type == "meta_final"',
    );
    expect(printExpression(parseAssertion('before(type == "tool_call", type == "tool_result")'))).toBe(
      'before(type == "tool_call", type == "tool_result")',
    );
  });

  it.each([
    ['type = "text"', 5, "Use '==' to compare"],
    ['typ == "text"', 0, "Unknown field 'typ'; did you mean 'type'?"],
    ['type == "text" &&', 17, 'Expected a field'],
    ['(type == "text"', 15, "Expected ')'"],
    ['bytes == "ten"', 9, 'bytes is a number'],
    ['type < "text"', 7, 'type has no order'],
    ['finding.severity >= "fatal"', 20, 'finding.severity is one of "info", "warning", "error"'],
    ['delta matches "(a"', 14, 'Bad regular expression'],
    ['delta matches "(a)\\\\1"', 14, 'Bad regular expression'],
    ['type == text', 8, 'quote it: "text"'],
    ['type', 0, "'type' is not a condition on its own"],
    ['"a" == type', 4, 'put the field on the left'],
    ['delta contains "a', 15, 'String is not closed'],
    ['type == "a" # x', 12, 'Unexpected character "#"'],
    ['final == true type', 14, "Expected '&&', '||' or the end"],
  ])('points at the character of a bad filter: %s', (source, at, message) => {
    const error = errorOf(source);
    expect(error.message).toContain(message);
    expect(error.at).toBe(at);
  });

  it.each([
    ['type == "text"', 0, 'An assertion is about the whole recording'],
    ['count(final) > "x"', 15, 'count(…) is a number'],
    ['first(final) < 2s', 13, "Expected '.'"],
    ['every sub: some final', 6, "'agent'"],
    ['status == "finished"', 10, 'status is one of "done", "error", "truncated", "stopped", "failed", "paused"'],
  ])('points at the character of a bad assertion: %s', (source, at, message) => {
    const error = errorOf(source, parseAssertion);
    expect(error.message).toContain(message);
    expect(error.at).toBe(at);
  });

  it('shows the caret under the culprit, control characters made visible one for one', () => {
    const source = 'type == "a\tb" && typo == 1';
    const error = errorOf(source);
    expect(caretLines(source, error)).toEqual(['type == "a·b" && typo == 1', `${' '.repeat(17)}^^^^`]);
    expect(describeFilterError(source, error)).toContain('(at character 18)');
  });

  it('refuses nesting deeper than the cap instead of overflowing the stack', () => {
    const deep = `${'('.repeat(1500)}final${')'.repeat(1500)}`;
    expect(errorOf(`${'('.repeat(100_000)}final`).message).toContain('longer than');
    expect(errorOf(deep).message).toContain(`nested deeper than ${MAX_DEPTH}`);
    expect(errorOf(`${'!'.repeat(MAX_DEPTH + 1)}final`).message).toContain('nested deeper');
    expect(errorOf(`${'final && ('.repeat(MAX_DEPTH)}final${')'.repeat(MAX_DEPTH)}`).message).toContain(
      'nested deeper',
    );
  });

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

describe('printing', () => {
  it.each([
    ['a || b && c', 'final || final && !final'],
    ['(a || b) && c', '(final || final) && final'],
    ['a && (b && c)', 'final && (final && final)'],
    ['!(a && b)', '!(final && final)'],
    ['!!a', '!!final'],
  ])('keeps the tree: %s', (_, source) => {
    expect(parseFilter(printExpression(parseFilter(source)))).toEqual(parseFilter(source));
    expect(printExpression(parseFilter(source))).toBe(source);
  });

  /** Seeded random trees over every field, operator and literal kind; depth stays under the cap. */
  function randomTree(random: () => number, mode: 'filter' | 'assertion', depth: number): Expr {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const names = ENVELOPE_FIELDS.names();
    const randomString = (): string => {
      const alphabet = ['a', 'Z', ' ', '"', "'", '\\', '\n', '\t', '\u0000', 'é', '😀', '\ud800', '/', 'sub 1'];
      return Array.from({ length: Math.floor(random() * 5) }, () => pick(alphabet)).join('');
    };
    const literalFor = (field: string): Literal => {
      const spec = ENVELOPE_FIELDS.field(field)!;
      if (spec.order) return { kind: 'string', value: pick(spec.order) };
      switch (spec.type) {
        case 'number':
          return { kind: 'number', value: pick([0, 1, 42, -7, 3.25, 1e21, 2048]) };
        case 'duration':
          return random() < 0.5
            ? { kind: 'number', value: pick([0, 150, 2000]) }
            : { kind: 'duration', value: pick([1, 2.5, 150]), unit: pick(['ms', 's', 'm'] as const) };
        case 'boolean':
          return { kind: 'boolean', value: random() < 0.5 };
        default:
          return { kind: 'string', value: randomString() };
      }
    };
    const comparison = (term: Term, field: string): Expr => {
      const spec = ENVELOPE_FIELDS.field(field)!;
      const ops =
        spec.type === 'string'
          ? spec.order
            ? ['==', '!=', '<', '>=', 'contains', 'matches']
            : ['==', '!=', 'contains', 'matches']
          : spec.type === 'boolean'
            ? ['==', '!=']
            : ['==', '!=', '<', '<=', '>', '>='];
      const op = pick(ops) as '==';
      if (random() < 0.15)
        return {
          kind: 'in',
          left: term,
          items: Array.from({ length: 1 + Math.floor(random() * 3) }, () => literalFor(field)),
        };
      if (op === ('matches' as string))
        return {
          kind: 'compare',
          op: 'matches',
          left: term,
          right: { kind: 'string', value: pick(['^a', 'b+', '(?i)x|y', '\\d{2}']) },
        };
      return { kind: 'compare', op, left: term, right: literalFor(field) };
    };
    const leaf = (): Expr => {
      if (mode === 'assertion') {
        const inner = (): Expr => randomTree(random, 'filter', depth + 1);
        switch (Math.floor(random() * 6)) {
          case 0:
            return { kind: random() < 0.5 ? 'some' : 'none', predicate: inner() };
          case 1:
            return {
              kind: 'compare',
              op: pick(['>=', '<', '==']),
              left: { kind: 'count', of: inner() },
              right: { kind: 'number', value: Math.floor(random() * 5) },
            };
          case 2: {
            const field = pick(names);
            return comparison({ kind: 'pick', which: pick(['first', 'last'] as const), of: inner(), field }, field);
          }
          case 3:
            return { kind: 'before', first: inner(), then: inner() };
          case 4:
            return {
              kind: 'compare',
              op: pick(['==', '!=']),
              left: { kind: 'status' },
              right: { kind: 'string', value: pick(['done', 'error', 'truncated']) },
            };
          default:
            return { kind: 'every-agent', body: randomTree(random, 'assertion', depth + 1) };
        }
      }
      const r = random();
      if (r < 0.1) return { kind: 'flag', field: 'final' };
      if (r < 0.2) return { kind: 'text', value: randomString() };
      const field = pick(names);
      return comparison({ kind: 'field', name: field }, field);
    };
    if (depth >= 4) return leaf();
    const r = random();
    const operands = (): Expr[] =>
      Array.from({ length: 2 + Math.floor(random() * 3) }, () => randomTree(random, mode, depth + 1));
    if (r < 0.25) return { kind: 'and', operands: operands() };
    if (r < 0.45) return { kind: 'or', operands: operands() };
    if (r < 0.55) return { kind: 'not', operand: randomTree(random, mode, depth + 1) };
    return leaf();
  }

  it.each([1, 2, 3, 42, 1337])(
    'print(parse(x)) parses to the same tree (seed %i, 300 random trees per mode)',
    (seed) => {
      const random = seededRandom(seed);
      for (let i = 0; i < 300; i++) {
        for (const mode of ['filter', 'assertion'] as const) {
          const tree = randomTree(random, mode, 0);
          const text = printExpression(tree);
          const parse = mode === 'filter' ? parseFilter : parseAssertion;
          const parsed = parse(text);
          expect(parsed, text).toEqual(tree);
          expect(printExpression(parsed)).toBe(text);
        }
      }
    },
  );
});

describe('completion', () => {
  const context = {
    values: (field: string) =>
      field === 'agent' ? ['main', 'sub 1'] : field === 'type' ? ['text', 'tool_call', 'thinking'] : [],
  };
  const at = (text: string) => completeFilter(text.replace('▮', ''), text.indexOf('▮'), ENVELOPE_FIELDS, context);
  const labels = (text: string) => at(text)?.items.map((i) => i.label) ?? [];

  it('offers field names where a condition starts, by prefix', () => {
    expect(labels('▮')).toContain('block.kind');
    expect(labels('ty▮')).toEqual(['type']);
    expect(at('final && bl▮')).toMatchObject({ from: 9, to: 11 });
    expect(labels('final && bl▮')).toEqual(['block.kind', 'block.content', 'block.status']);
    expect(labels('!(fin▮')).toEqual(['final', 'finding.rule', 'finding.severity']);
  });

  it('offers operators after a field, by its type', () => {
    expect(labels('type ▮')).toEqual(['==', '!=', 'contains', 'matches', 'in']);
    expect(labels('bytes ▮')).toContain('>=');
    expect(labels('final ▮')).toEqual(['&&', '||', '==', '!=']);
  });

  it("offers the field's values: fixed ones and the session's, quoted, also inside an open string and a list", () => {
    expect(at('type == ▮')?.items.map((i) => i.insert)).toContain('"tool_call"');
    expect(labels('type == "t▮')).toEqual(expect.arrayContaining(['text', 'tool_call', 'thinking', 'tool_result']));
    expect(at('agent == "s▮"')).toMatchObject({ from: 9, to: 12, items: [{ label: 'sub 1', insert: '"sub 1"' }] });
    expect(labels('agent in ["main", ▮')).toEqual(['main', 'sub 1']);
    expect(labels('finding.severity >= ▮')).toEqual(['info', 'warning', 'error']);
    expect(labels('final == ▮')).toEqual(['true', 'false']);
  });

  it('offers && and || after a complete condition, nothing on text it cannot read', () => {
    expect(labels('type == "text" ▮')).toEqual(['&&', '||']);
    expect(at('type # ▮')).toBeNull();
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
