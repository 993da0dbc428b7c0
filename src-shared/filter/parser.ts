import { END_STATUS_KINDS } from '../pipeline/end-status';
import type { CompareOp, Expr, Literal, ParseMode, Term } from './ast';
import { FilterError } from './errors';
import type { FieldSpec } from './fields';
import { compileRegex } from './regex';
import { tokenize, type Token } from './tokens';

/** What the parser needs to know about fields: their names and types (see fields.ts). */
export interface FieldLookup {
  field(name: string): FieldSpec | undefined;
  names(): readonly string[];
}

/** Longer texts are refused before tokenizing: a filter is typed or kept in a spec file. */
export const MAX_EXPRESSION_LENGTH = 4000;
/**
 * How deep a tree may nest. The printer and evaluator walk the tree recursively, so the
 * depth is capped here, where the text is read, and nothing downstream recurses unboundedly.
 */
export const MAX_DEPTH = 128;

const COMPARE_OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const WORD_OPS = new Set(['contains', 'matches', 'in']);
const ASSERTION_WORDS = ['some', 'none', 'count', 'first', 'last', 'before', 'status', 'every'];

/** Binding powers: `||` binds loosest, then `&&`; `!` takes a comparison as its operand. */
const BP_OR = 10;
const BP_AND = 20;

interface Node<T> {
  readonly node: T;
  readonly depth: number;
  readonly at: number;
}

/**
 * A Pratt parser for filters and assertions. `mode` says which the text is: a filter is a
 * condition on one envelope; an assertion is a condition on a recording, built from `some`,
 * `none`, `count(…)`, `first(…).field`, `before(…, …)`, `status` and `every agent:`, whose
 * inner conditions are filters. Field names and the types of compared values are checked
 * against `fields`, so a typo fails here with the character it is at.
 */
export function parseExpression(source: string, mode: ParseMode, fields: FieldLookup): Expr {
  if (source.length > MAX_EXPRESSION_LENGTH)
    throw new FilterError(`Expression longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH);
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const next = (): Token => tokens[pos++]!;
  const isOp = (token: Token, text: string): boolean => token.kind === 'op' && token.text === text;
  const expectOp = (text: string, what: string): Token => {
    const token = next();
    if (!isOp(token, text)) throw unexpected(token, `'${text}' ${what}`);
    return token;
  };
  const deeper = (depth: number, at: number): number => {
    if (depth + 1 > MAX_DEPTH) throw new FilterError(`Expression nested deeper than ${MAX_DEPTH} levels`, at);
    return depth + 1;
  };

  /** A condition: filters and assertions alike, with `&&`, `||`, `!` and parentheses. */
  const condition = (minBp: number, mode: ParseMode, depth: number): Node<Expr> => {
    let left = prefix(mode, deeper(depth, peek().at));
    /** The operands of the chain `left` is, while the same operator repeats (a && b && c). */
    let chain = null as { kind: 'and' | 'or'; operands: Expr[] } | null;
    for (;;) {
      const token = peek();
      const bp = isOp(token, '||') ? BP_OR : isOp(token, '&&') ? BP_AND : 0;
      if (bp === 0 || bp <= minBp) break;
      next();
      const right = condition(bp, mode, depth + 1);
      const kind = bp === BP_OR ? 'or' : 'and';
      const d = deeper(Math.max(chain?.kind === kind ? left.depth - 1 : left.depth, right.depth), token.at);
      // The same operator again extends the chain instead of nesting it one level deeper.
      if (chain?.kind === kind) chain.operands.push(right.node);
      else chain = { kind, operands: [left.node, right.node] };
      left = { node: chain, depth: d, at: left.at };
    }
    const after = peek();
    if (after.kind !== 'end' && !isOp(after, ')') && !isOp(after, ',') && !isOp(after, '||') && !isOp(after, '&&')) {
      if (after.kind === 'op' && COMPARE_OPS.has(after.text))
        throw new FilterError('Only a field can be compared; put the field on the left', after.at, after.length);
      throw unexpected(after, "'&&', '||' or the end");
    }
    return left;
  };

  const prefix = (mode: ParseMode, depth: number): Node<Expr> => {
    const token = peek();
    if (isOp(token, '!')) {
      next();
      const operand = condition(BP_AND, mode, depth);
      return { node: { kind: 'not', operand: operand.node }, depth: deeper(operand.depth, token.at), at: token.at };
    }
    if (isOp(token, '(')) {
      next();
      const inner = condition(0, mode, depth);
      expectOp(')', 'to close the parenthesis');
      return inner;
    }
    if (token.kind === 'string' && mode === 'filter') {
      next();
      return { node: { kind: 'text', value: token.text }, depth, at: token.at };
    }
    if (token.kind === 'ident') return mode === 'filter' ? filterAtom(depth) : assertionAtom(depth);
    throw unexpected(
      token,
      mode === 'filter'
        ? 'a field, a quoted text, ! or ('
        : 'some, none, count(…), first(…), last(…), before(…), status or every agent:',
    );
  };

  /** `field OP literal`, `field in [ … ]`, or a boolean field alone. */
  const filterAtom = (depth: number): Node<Expr> => {
    const token = next();
    const spec = fields.field(token.text);
    if (!spec) throw unknownField(token);
    const term: Term = { kind: 'field', name: token.text };
    const op = peek();
    if (isComparison(op)) return comparison(term, spec, token, depth);
    if (spec.type !== 'boolean')
      throw new FilterError(
        `'${token.text}' is not a condition on its own; compare it (${token.text} == …)`,
        token.at,
        token.length,
      );
    return { node: { kind: 'flag', field: token.text }, depth, at: token.at };
  };

  const assertionAtom = (depth: number): Node<Expr> => {
    const token = next();
    switch (token.text) {
      case 'some':
      case 'none': {
        const predicate = condition(0, 'filter', depth);
        return {
          node: { kind: token.text, predicate: predicate.node },
          depth: deeper(predicate.depth, token.at),
          at: token.at,
        };
      }
      case 'before': {
        expectOp('(', 'after before');
        const first = condition(0, 'filter', depth);
        expectOp(',', 'between the two conditions of before(…, …)');
        const then = condition(0, 'filter', depth);
        expectOp(')', 'to close before(…, …)');
        return {
          node: { kind: 'before', first: first.node, then: then.node },
          depth: deeper(Math.max(first.depth, then.depth), token.at),
          at: token.at,
        };
      }
      case 'every': {
        const what = next();
        if (what.kind !== 'ident' || what.text !== 'agent') throw unexpected(what, "'agent' (every agent: …)");
        expectOp(':', "after 'every agent'");
        const body = condition(0, 'assertion', depth);
        return { node: { kind: 'every-agent', body: body.node }, depth: deeper(body.depth, token.at), at: token.at };
      }
      case 'count': {
        expectOp('(', 'after count');
        const of = condition(0, 'filter', depth);
        expectOp(')', 'to close count(…)');
        return comparison(
          { kind: 'count', of: of.node },
          { name: 'count(…)', type: 'number' },
          token,
          deeper(of.depth, token.at),
        );
      }
      case 'first':
      case 'last': {
        expectOp('(', `after ${token.text}`);
        const of = condition(0, 'filter', depth);
        expectOp(')', `to close ${token.text}(…)`);
        expectOp('.', `and a field after ${token.text}(…), as in ${token.text}(…).time`);
        const fieldToken = next();
        const spec = fieldToken.kind === 'ident' ? fields.field(fieldToken.text) : undefined;
        if (!spec)
          throw fieldToken.kind === 'ident' ? unknownField(fieldToken) : unexpected(fieldToken, 'a field name');
        return comparison(
          { kind: 'pick', which: token.text, of: of.node, field: fieldToken.text },
          spec,
          token,
          deeper(of.depth, token.at),
        );
      }
      case 'status':
        return comparison({ kind: 'status' }, STATUS_SPEC, token, depth);
      default:
        throw new FilterError(
          fields.field(token.text)
            ? `An assertion is about the whole recording: wrap the condition, as in some ${token.text} …`
            : `Unknown assertion '${token.text}'; expected ${ASSERTION_WORDS.join(', ')}`,
          token.at,
          token.length,
        );
    }
  };

  const comparison = (term: Term, spec: FieldSpec, at: Token, depth: number): Node<Expr> => {
    const op = next();
    if (!isComparison(op)) throw unexpected(op, 'a comparison (==, !=, <, <=, >, >=, contains, matches, in)');
    if (op.text === 'in') {
      expectOp('[', 'after \'in\' (in ["a", "b"])');
      const items: Literal[] = [];
      if (!isOp(peek(), ']')) {
        for (;;) {
          items.push(literalFor(spec, '==', next()));
          if (isOp(peek(), ',')) {
            next();
            continue;
          }
          break;
        }
      }
      expectOp(']', 'to close the list');
      return { node: { kind: 'in', left: term, items }, depth, at: at.at };
    }
    const valueToken = next();
    const literal = literalFor(spec, op.text as CompareOp, valueToken);
    if (op.text === 'matches' && literal.kind === 'string') {
      try {
        compileRegex(literal.value);
      } catch (error) {
        throw new FilterError(
          `Bad regular expression: ${error instanceof Error ? error.message : String(error)}`,
          valueToken.at,
          valueToken.length,
        );
      }
    }
    return { node: { kind: 'compare', op: op.text as CompareOp, left: term, right: literal }, depth, at: at.at };
  };

  const expr = condition(0, mode, 0);
  const rest = peek();
  if (rest.kind !== 'end') throw unexpected(rest, 'the end of the expression');
  return expr.node;

  function isComparison(token: Token): boolean {
    return (token.kind === 'op' && COMPARE_OPS.has(token.text)) || (token.kind === 'ident' && WORD_OPS.has(token.text));
  }

  function unknownField(token: Token): FilterError {
    const near = closest(token.text, fields.names());
    return new FilterError(
      `Unknown field '${token.text}'${near ? `; did you mean '${near}'?` : ''} (to search text, quote it: "${token.text}")`,
      token.at,
      token.length,
    );
  }
}

/** `status` compares the end status kinds (src-shared/pipeline/end-status.ts). */
const STATUS_SPEC: FieldSpec = { name: 'status', type: 'string', values: END_STATUS_KINDS, closed: true };

/** The literal on the right of a comparison, checked against the field's type. */
function literalFor(spec: FieldSpec, op: CompareOp, token: Token): Literal {
  const literal = toLiteral(token);
  const fail = (message: string): never => {
    throw new FilterError(message, token.at, token.length);
  };
  if (op === 'contains' || op === 'matches') {
    if (spec.type !== 'string' && spec.type !== 'any') fail(`'${op}' works on text; ${spec.name} is a ${spec.type}`);
    if (literal.kind !== 'string') fail(`'${op}' takes a quoted string`);
    return literal;
  }
  const ordering = op !== '==' && op !== '!=';
  switch (spec.type) {
    case 'string':
      if (literal.kind !== 'string') fail(`${spec.name} is text; compare it with a quoted string`);
      if (ordering && !spec.order) fail(`${spec.name} has no order; use == , != , contains or matches`);
      {
        const allowed = spec.order ?? (spec.closed ? spec.values : undefined);
        if (allowed && !allowed.includes((literal as { value: string }).value))
          fail(`${spec.name} is one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
      }
      return literal;
    case 'number':
      if (literal.kind !== 'number') fail(`${spec.name} is a number`);
      return literal;
    case 'duration':
      if (literal.kind !== 'duration' && literal.kind !== 'number')
        fail(`${spec.name} is a duration (2s, 150ms or a number of milliseconds)`);
      return literal;
    case 'boolean':
      if (literal.kind !== 'boolean') fail(`${spec.name} is true or false`);
      if (ordering) fail(`${spec.name} is true or false; use == or !=`);
      return literal;
    case 'any':
      return literal;
  }
}

function toLiteral(token: Token): Literal {
  switch (token.kind) {
    case 'string':
      return { kind: 'string', value: token.text };
    case 'number':
      return { kind: 'number', value: token.value! };
    case 'duration':
      return { kind: 'duration', value: token.value!, unit: token.unit! };
    case 'ident':
      if (token.text === 'true' || token.text === 'false') return { kind: 'boolean', value: token.text === 'true' };
      throw new FilterError(
        `Expected a value; to compare with the text ${token.text}, quote it: "${token.text}"`,
        token.at,
        token.length,
      );
    default:
      throw unexpected(token, 'a value (a quoted string, a number, a duration, true or false)');
  }
}

function unexpected(token: Token, expected: string): FilterError {
  const found = token.kind === 'end' ? 'the end' : token.kind === 'string' ? 'a string' : `'${token.text}'`;
  return new FilterError(`Expected ${expected}, found ${found}`, token.at, token.length);
}

/** The known name nearest to a typo (edit distance at most 2), for "did you mean". */
function closest(name: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of names) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
