import type { Expr, Literal, Term } from './ast';

/**
 * The canonical text of a tree: parsing it gives the same tree back (a property test checks
 * this). Parentheses are added only where the tree needs them: `||` inside `&&`, a chain
 * inside a chain of the same operator, a compound under `!`, and an open-ended assertion
 * (`some`, `none`, `every agent:`) as an operand.
 */
export function printExpression(expr: Expr): string {
  return print(expr);
}

const PRECEDENCE: Partial<Record<Expr['kind'], number>> = { or: 1, and: 2, not: 3 };
const OPEN_ENDED = new Set<Expr['kind']>(['some', 'none', 'every-agent']);

function print(expr: Expr): string {
  switch (expr.kind) {
    case 'or':
    case 'and': {
      const own = PRECEDENCE[expr.kind]!;
      return expr.operands.map((child) => operand(child, own)).join(expr.kind === 'or' ? ' || ' : ' && ');
    }
    case 'not':
      return `!${operand(expr.operand, PRECEDENCE.not!)}`;
    case 'flag':
      return expr.field;
    case 'text':
      return printLiteral({ kind: 'string', value: expr.value });
    case 'compare':
      return `${printTerm(expr.left)} ${expr.op} ${printLiteral(expr.right)}`;
    case 'in':
      return `${printTerm(expr.left)} in [${expr.items.map(printLiteral).join(', ')}]`;
    case 'some':
    case 'none':
      return `${expr.kind} ${print(expr.predicate)}`;
    case 'before':
      return `before(${print(expr.first)}, ${print(expr.then)})`;
    case 'every-agent':
      return `every agent: ${print(expr.body)}`;
  }
}

/**
 * A child of a chain or prefix operator of precedence `parent`, parenthesised if needed: a
 * chain of the parent's own operator too, or it would read as part of the parent's chain.
 */
function operand(child: Expr, parent: number): string {
  const text = print(child);
  if (OPEN_ENDED.has(child.kind)) return `(${text})`;
  const own = PRECEDENCE[child.kind];
  if (own === undefined || own === 3) return text;
  return own <= parent ? `(${text})` : text;
}

function printTerm(term: Term): string {
  switch (term.kind) {
    case 'field':
      return term.name;
    case 'count':
      return `count(${print(term.of)})`;
    case 'pick':
      return `${term.which}(${print(term.of)}).${term.field}`;
    case 'status':
      return 'status';
  }
}

export function printLiteral(literal: Literal): string {
  switch (literal.kind) {
    case 'string':
      return JSON.stringify(literal.value);
    case 'number':
      return String(literal.value);
    case 'boolean':
      return String(literal.value);
    case 'duration':
      return `${literal.value}${literal.unit}`;
  }
}
