import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import type { Expr, Literal, Term } from './ast';
import { ENVELOPE_FIELDS } from './envelope-fields';
import { parseAssertion, parseFilter, printExpression } from './index';

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
