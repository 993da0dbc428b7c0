import { DURATION_MS, type CompareOp, type Expr, type Literal, type Term } from './ast';
import type { FieldDef, FieldSpec, FieldValue, FieldValues } from './fields';
import { compileRegex, type Regex } from './regex';

export type Predicate<S> = (subject: S) => boolean;

/**
 * How a filter reads subjects: the field's spec and reader, or undefined when this reader
 * cannot provide it (the renderer's column store knows a few fields; main knows them all).
 * `text` reads the strings a bare quoted string searches.
 */
export interface SubjectReader<S> {
  field(name: string): ReadableField<S> | undefined;
  readonly text?: (subject: S) => readonly string[];
  /**
   * Subjects that carry part of a match in text the stream split across subjects (a block's
   * reassembled text: "The E" + "iffel Tower" is found by "Eiffel" on both envelopes).
   */
  readonly textAcross?: (needle: string) => Predicate<S>;
}

/** A field as a reader provides it: its spec, its value, and which subjects share it. */
export type ReadableField<S> = FieldSpec & Pick<FieldDef<S>, 'get' | 'sharedBy'>;

/** A filter names a field this reader does not provide. */
export class UnavailableFieldError extends Error {
  override readonly name = 'UnavailableFieldError';
  constructor(readonly field: string) {
    super(`The field '${field}' cannot be read here`);
  }
}

/**
 * Compiles a filter (a condition on one subject) to a predicate. Semantics, as in
 * docs/filters.md: a comparison on an absent field is false (`!=` too); on a field with
 * several values (an envelope's findings) it holds if any value satisfies it, except `!=`,
 * which holds if none equals. The tree's depth is capped by the parser, so compiling
 * recursively is bounded.
 */
export function compileFilter<S>(expr: Expr, reader: SubjectReader<S>): Predicate<S> {
  switch (expr.kind) {
    case 'and': {
      const operands = expr.operands.map((operand) => compileFilter(operand, reader));
      return (s) => operands.every((operand) => operand(s));
    }
    case 'or': {
      const operands = expr.operands.map((operand) => compileFilter(operand, reader));
      return (s) => operands.some((operand) => operand(s));
    }
    case 'not': {
      const operand = compileFilter(expr.operand, reader);
      return (s) => !operand(s);
    }
    case 'flag': {
      const field = fieldOf(reader, expr.field);
      return (s) => values(field.get(s)).some((v) => v === true);
    }
    case 'text': {
      const text = reader.text;
      if (!text) throw new UnavailableFieldError('text');
      const needle = expr.value.toLowerCase();
      const across = reader.textAcross?.(expr.value);
      return (s) => text(s).some((t) => t.toLowerCase().includes(needle)) || (across?.(s) ?? false);
    }
    case 'compare': {
      const field = fieldOf(reader, termField(expr.left));
      const test = valueTest(expr.op, expr.right, field);
      if (expr.op === '!=')
        return oncePerShared(field, (s) => {
          const list = values(field.get(s));
          return list.length > 0 && list.every(test);
        });
      return oncePerShared(field, (s) => values(field.get(s)).some(test));
    }
    case 'in': {
      const field = fieldOf(reader, termField(expr.left));
      const tests = expr.items.map((item) => valueTest('==', item, field));
      return oncePerShared(field, (s) => values(field.get(s)).some((v) => tests.some((t) => t(v))));
    }
    default:
      throw new Error(`'${expr.kind}' is an assertion over a recording, not a filter`);
  }
}

function termField(term: Term): string {
  if (term.kind !== 'field') throw new Error(`'${term.kind}' belongs in an assertion, not a filter`);
  return term.name;
}

/**
 * A condition on a field many subjects share, decided once per shared value (per block, for
 * `block.content matches`) and remembered while its version holds: every envelope of a block
 * asks the same question of the same text.
 */
function oncePerShared<S>(field: ReadableField<S>, decide: Predicate<S>): Predicate<S> {
  const sharedBy = field.sharedBy?.bind(field);
  if (!sharedBy) return decide;
  const decided = new WeakMap<object, { version: number; result: boolean }>();
  return (s) => {
    const shared = sharedBy(s);
    if (!shared) return decide(s);
    const known = decided.get(shared.key);
    if (known?.version === shared.version) return known.result;
    const result = decide(s);
    decided.set(shared.key, { version: shared.version, result });
    return result;
  };
}

function fieldOf<S>(reader: SubjectReader<S>, name: string): ReadableField<S> {
  const field = reader.field(name);
  if (!field) throw new UnavailableFieldError(name);
  return field;
}

const NO_VALUES: readonly FieldValue[] = [];

export function values(value: FieldValues): readonly FieldValue[] {
  if (value === undefined) return NO_VALUES;
  return typeof value === 'object' ? value : [value];
}

/** The number a literal stands for (durations in milliseconds). */
export function literalNumber(literal: Literal): number | undefined {
  if (literal.kind === 'duration') return literal.value * DURATION_MS[literal.unit];
  return literal.kind === 'number' ? literal.value : undefined;
}

/** A test of one field value against a literal, with the regex compiled once. */
export function valueTest(
  op: CompareOp,
  literal: Literal,
  spec: Pick<FieldSpec, 'order'>,
): (value: FieldValue) => boolean {
  if (op === 'contains') {
    const needle = String(literal.value);
    return (v) => typeof v === 'string' && v.includes(needle);
  }
  if (op === 'matches') {
    const regex: Regex = compileRegex(String(literal.value));
    return (v) => typeof v === 'string' && regex.test(v);
  }
  const order = spec.order;
  const rank = (v: FieldValue): FieldValue => (order && typeof v === 'string' ? order.indexOf(v) : v);
  const right = rank(literalNumber(literal) ?? literal.value);
  const sameKind = (v: FieldValue): boolean => typeof v === typeof right;
  switch (op) {
    case '==':
      return (v) => rank(v) === right;
    case '!=':
      return (v) => rank(v) !== right;
    case '<':
      return (v) => sameKind(rank(v)) && rank(v) < right;
    case '<=':
      return (v) => sameKind(rank(v)) && rank(v) <= right;
    case '>':
      return (v) => sameKind(rank(v)) && rank(v) > right;
    case '>=':
      return (v) => sameKind(rank(v)) && rank(v) >= right;
  }
}
