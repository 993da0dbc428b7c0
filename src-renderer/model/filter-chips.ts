import type { Expr, Literal } from '../../src-shared/filter/ast';
import { printExpression } from '../../src-shared/filter/print';
import type { Severity } from '../../src-shared/diagnostics/severity';

/**
 * The filter bar's pickers (agents, types, final, findings) are views of the filter
 * expression: each owns one top-level `&&` condition of a known shape, reads its state from
 * it, and writes it back as text, so every pick shows its expression in the box and the box
 * stays the one truth. Conditions of other shapes are the user's and are kept as typed.
 */
export interface ChipState {
  /** Agent names as shown ("main", "sub 1"). */
  readonly agents: readonly string[];
  readonly types: readonly string[];
  readonly final: 'any' | 'final' | 'not-final';
  readonly minSeverity: Severity | null;
}

export type ChipChange =
  | { agents: readonly string[] }
  | { types: readonly string[] }
  | { final: ChipState['final'] }
  | { minSeverity: Severity | null };

type Chip = 'agents' | 'types' | 'final' | 'minSeverity';

export const NO_CHIPS: ChipState = { agents: [], types: [], final: 'any', minSeverity: null };

/** The top-level conditions joined by `&&` (left to right). */
export function conjuncts(tree: Expr | null): Expr[] {
  if (!tree) return [];
  const out: Expr[] = [];
  const stack: Expr[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'and') stack.push(...[...node.operands].reverse());
    else out.push(node);
  }
  return out;
}

const strings = (items: readonly Literal[]): string[] | null =>
  items.every((i) => i.kind === 'string') ? items.map((i) => i.value) : null;

/** Which picker a condition belongs to, and its value there. */
function chipOf(node: Expr): { chip: Chip; state: Partial<ChipState> } | null {
  if (node.kind === 'flag' && node.field === 'final') return { chip: 'final', state: { final: 'final' } };
  if (node.kind === 'not' && node.operand.kind === 'flag' && node.operand.field === 'final')
    return { chip: 'final', state: { final: 'not-final' } };
  if ((node.kind === 'compare' || node.kind === 'in') && node.left.kind === 'field') {
    const field = node.left.name;
    const values =
      node.kind === 'in'
        ? strings(node.items)
        : node.op === '==' && node.right.kind === 'string'
          ? [node.right.value]
          : null;
    if (values && field === 'agent') return { chip: 'agents', state: { agents: values } };
    if (values && field === 'type') return { chip: 'types', state: { types: values } };
    if (node.kind === 'compare' && field === 'finding.severity' && node.op === '>=' && node.right.kind === 'string')
      return { chip: 'minSeverity', state: { minSeverity: node.right.value as Severity } };
  }
  return null;
}

export function chipsOf(tree: Expr | null): ChipState {
  let state: ChipState = NO_CHIPS;
  for (const node of conjuncts(tree)) {
    const found = chipOf(node);
    if (found) state = { ...state, ...found.state };
  }
  return state;
}

function chipExpr(change: ChipChange): Expr | null {
  const list = (field: string, values: readonly string[]): Expr | null =>
    values.length === 0
      ? null
      : values.length === 1
        ? {
            kind: 'compare',
            op: '==',
            left: { kind: 'field', name: field },
            right: { kind: 'string', value: values[0]! },
          }
        : {
            kind: 'in',
            left: { kind: 'field', name: field },
            items: values.map((value) => ({ kind: 'string', value })),
          };
  if ('agents' in change) return list('agent', change.agents);
  if ('types' in change) return list('type', change.types);
  if ('final' in change)
    return change.final === 'any'
      ? null
      : change.final === 'final'
        ? { kind: 'flag', field: 'final' }
        : { kind: 'not', operand: { kind: 'flag', field: 'final' } };
  return change.minSeverity === null
    ? null
    : {
        kind: 'compare',
        op: '>=',
        left: { kind: 'field', name: 'finding.severity' },
        right: { kind: 'string', value: change.minSeverity },
      };
}

/**
 * The expression with one picker's condition replaced (or added, or removed). `tree` is the
 * current expression parsed; when the text does not parse, the pick is appended to it as text.
 */
export function applyChip(expression: string, tree: Expr | null, change: ChipChange): string {
  const chip = Object.keys(change)[0] as Chip;
  const added = chipExpr(change);
  if (tree === null && expression.trim() !== '')
    return added ? `${expression.trim()} && ${printExpression(added)}` : expression;
  const kept = conjuncts(tree).filter((node) => chipOf(node)?.chip !== chip);
  const all = added ? [...kept, added] : kept;
  if (all.length === 0) return '';
  return printExpression(all.length === 1 ? all[0]! : { kind: 'and', operands: all });
}
