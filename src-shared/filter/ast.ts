/**
 * The filter language's tree. One tree serves two uses: a *filter* (a condition on one
 * envelope: the timeline's filter box, `inspect --filter`) and an *assertion* (a condition on
 * a whole recording: `stream-inspector check`). Positions are not part of the tree, so two
 * parses of equivalent text compare equal; syntax errors carry their own position.
 */

export type Literal =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  /** A duration as written (`2s`, `150ms`, `1m`); compared in milliseconds. */
  | { readonly kind: 'duration'; readonly value: number; readonly unit: DurationUnit };

export type DurationUnit = 'ms' | 's' | 'm';

export const DURATION_MS: Record<DurationUnit, number> = { ms: 1, s: 1000, m: 60_000 };

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'matches';

/** What a comparison reads on its left. */
export type Term =
  | { readonly kind: 'field'; readonly name: string }
  /** Assertions: how many envelopes match. */
  | { readonly kind: 'count'; readonly of: Expr }
  /** Assertions: a field of the first or last envelope that matches. */
  | { readonly kind: 'pick'; readonly which: 'first' | 'last'; readonly of: Expr; readonly field: string }
  /** Assertions: how the recording ended (done, error, truncated, stopped, failed). */
  | { readonly kind: 'status' };

export type Expr =
  /**
   * A chain of one operator (`a && b && c`), its operands side by side in source order (two or
   * more): a flat chain of any length is one level deep, and nothing walks it recursively.
   */
  | { readonly kind: 'and' | 'or'; readonly operands: readonly Expr[] }
  | { readonly kind: 'not'; readonly operand: Expr }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Term; readonly right: Literal }
  | { readonly kind: 'in'; readonly left: Term; readonly items: readonly Literal[] }
  /** A boolean field used as a condition: `final`, `!final`. */
  | { readonly kind: 'flag'; readonly field: string }
  /** A bare string: the envelope's delta, type, agent, id or name contains it, any case. */
  | { readonly kind: 'text'; readonly value: string }
  /** Assertions: some envelope matches / no envelope matches. */
  | { readonly kind: 'some' | 'none'; readonly predicate: Expr }
  /** Assertions: the first envelope matching `first` comes before the first matching `then`. */
  | { readonly kind: 'before'; readonly first: Expr; readonly then: Expr }
  /** Assertions: the body holds for every agent's envelopes on their own. */
  | { readonly kind: 'every-agent'; readonly body: Expr };

/** Which of the two uses a text is parsed for. */
export type ParseMode = 'filter' | 'assertion';

/** Field names an expression reads (for deciding where it can be evaluated). */
export function fieldsOf(expr: Expr): Set<string> {
  const out = new Set<string>();
  const stack: (Expr | Term)[] = [expr];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.kind) {
      case 'and':
      case 'or':
        stack.push(...node.operands);
        break;
      case 'not':
        stack.push(node.operand);
        break;
      case 'compare':
      case 'in':
        stack.push(node.left);
        break;
      case 'flag':
        out.add(node.field);
        break;
      case 'field':
        out.add(node.name);
        break;
      case 'text':
        out.add('text');
        break;
      case 'some':
      case 'none':
        stack.push(node.predicate);
        break;
      case 'before':
        stack.push(node.first, node.then);
        break;
      case 'every-agent':
        stack.push(node.body);
        break;
      case 'count':
        stack.push(node.of);
        break;
      case 'pick':
        out.add(node.field);
        stack.push(node.of);
        break;
      case 'status':
        break;
    }
  }
  return out;
}
