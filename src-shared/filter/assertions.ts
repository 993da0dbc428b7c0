import type { EndStatus } from '../pipeline/end-status';
import type { Expr, Term } from './ast';
import type { EnvelopeSubject } from './envelope-fields';
import { compileFilter, valueTest, values, type SubjectReader } from './evaluate';
import type { FieldSpec } from './fields';
import { printExpression } from './print';

/**
 * What an assertion is checked against: one recording's envelopes and how it ended (`status`).
 * `subjects` is read only by an assertion about envelopes (it may be a getter that builds them).
 */
export interface AssertionInput {
  readonly subjects: readonly EnvelopeSubject[];
  readonly status: Pick<EndStatus, 'kind' | 'reason'>;
}

export interface AssertionResult {
  readonly pass: boolean;
  /** Why, in a few words: "3 envelopes matched", "no envelope matched", "status is truncated". */
  readonly detail: string;
  /** The envelope that decided the result, when one did. */
  readonly envelope?: EnvelopeSubject;
  /** Under `every agent:`, the agent whose result decided it. */
  readonly agent?: string;
}

const STATUS_SPEC: FieldSpec = { name: 'status', type: 'string' };

/**
 * Checks an assertion (a tree parsed in assertion mode) against a recording. `some` passes on
 * its first match and `none` fails on it; `before(a, b)` needs both and the first `a` ahead of
 * the first `b`; `every agent:` checks its body on each agent's envelopes alone, in spawn order.
 */
export function checkAssertion(
  expr: Expr,
  input: AssertionInput,
  reader: SubjectReader<EnvelopeSubject>,
): AssertionResult {
  /** The envelopes in scope: null for all of the input's, read only when a node needs them. */
  type Scope = readonly EnvelopeSubject[] | null;
  const all = (scope: Scope): readonly EnvelopeSubject[] => scope ?? input.subjects;
  const run = (node: Expr, subjects: Scope): AssertionResult => {
    switch (node.kind) {
      case 'and': {
        let result: AssertionResult | undefined;
        for (const operand of node.operands) {
          result = run(operand, subjects);
          if (!result.pass) return result;
        }
        return result!;
      }
      case 'or': {
        const failed: string[] = [];
        let result: AssertionResult | undefined;
        for (const operand of node.operands) {
          result = run(operand, subjects);
          if (result.pass) return result;
          failed.push(result.detail);
        }
        return { ...result!, detail: failed.join('; ') };
      }
      case 'not': {
        const inner = run(node.operand, subjects);
        return { ...inner, pass: !inner.pass, detail: `not: ${inner.detail}` };
      }
      case 'some':
      case 'none': {
        const match = compileFilter(node.predicate, reader);
        const found = all(subjects).find(match);
        const pass = node.kind === 'some' ? found !== undefined : found === undefined;
        return found
          ? { pass, detail: `envelope #${found.envelope.seq} matches`, envelope: found }
          : { pass, detail: 'no envelope matches' };
      }
      case 'before': {
        const first = all(subjects).find(compileFilter(node.first, reader));
        const then = all(subjects).find(compileFilter(node.then, reader));
        if (!first)
          return {
            pass: false,
            detail: `no envelope matches ${printExpression(node.first)}`,
            ...(then ? { envelope: then } : {}),
          };
        if (!then) return { pass: false, detail: `no envelope matches ${printExpression(node.then)}`, envelope: first };
        const pass = first.envelope.seq < then.envelope.seq;
        return {
          pass,
          detail: `first match #${first.envelope.seq}, second #${then.envelope.seq}`,
          envelope: pass ? first : then,
        };
      }
      case 'every-agent': {
        const byAgent = new Map<string, EnvelopeSubject[]>();
        for (const s of all(subjects)) {
          const list = byAgent.get(s.agentName);
          if (list) list.push(s);
          else byAgent.set(s.agentName, [s]);
        }
        // Control envelopes ([DONE], error frames) carry the root agent; an agent is one that sent content.
        for (const [agent, list] of byAgent) if (list.every((s) => s.envelope.control)) byAgent.delete(agent);
        if (byAgent.size === 0) return { pass: false, detail: 'the recording has no agents' };
        for (const [agent, list] of byAgent) {
          const result = run(node.body, list);
          if (!result.pass) return { ...result, agent, detail: `agent ${agent}: ${result.detail}` };
        }
        return {
          pass: true,
          detail: `holds for ${byAgent.size} agent${byAgent.size === 1 ? '' : 's'} (${[...byAgent.keys()].join(', ')})`,
        };
      }
      case 'compare':
      case 'in':
        return compareTerm(node, subjects);
      default:
        throw new Error(`'${node.kind}' is a filter; in an assertion wrap it: some ${printExpression(node)}`);
    }
  };

  const compareTerm = (node: Extract<Expr, { kind: 'compare' | 'in' }>, subjects: Scope): AssertionResult => {
    const [spec, read] = termReader(node.left, subjects);
    const tests =
      node.kind === 'in'
        ? node.items.map((item) => valueTest('==', item, spec))
        : [valueTest(node.op, node.right, spec)];
    const { value, envelope, detail } = read;
    if (value === undefined) return { pass: false, detail, ...(envelope ? { envelope } : {}) };
    const list = values(value);
    const pass =
      node.kind === 'compare' && node.op === '!='
        ? list.length > 0 && list.every(tests[0]!)
        : list.some((v) => tests.some((t) => t(v)));
    return { pass, detail, ...(envelope ? { envelope } : {}) };
  };

  type Read = {
    value: ReturnType<NonNullable<ReturnType<SubjectReader<EnvelopeSubject>['field']>>['get']>;
    envelope?: EnvelopeSubject;
    detail: string;
  };

  const termReader = (term: Term, subjects: Scope): [Pick<FieldSpec, 'order'>, Read] => {
    switch (term.kind) {
      case 'status':
        return [
          STATUS_SPEC,
          { value: input.status.kind, detail: `status is ${input.status.kind}: ${input.status.reason}` },
        ];
      case 'count': {
        const match = compileFilter(term.of, reader);
        let count = 0;
        let firstMatch: EnvelopeSubject | undefined;
        for (const s of all(subjects)) {
          if (!match(s)) continue;
          count++;
          firstMatch ??= s;
        }
        return [{}, { value: count, ...(firstMatch ? { envelope: firstMatch } : {}), detail: `count is ${count}` }];
      }
      case 'pick': {
        const match = compileFilter(term.of, reader);
        const found = term.which === 'first' ? all(subjects).find(match) : lastMatch(all(subjects), match);
        const field = reader.field(term.field);
        if (!field) throw new Error(`Unknown field '${term.field}'`);
        if (!found) return [field, { value: undefined, detail: `no envelope matches ${printExpression(term.of)}` }];
        const value = field.get(found);
        const first = values(value)[0];
        const shown =
          first === undefined
            ? 'absent'
            : field.type === 'duration'
              ? `${Math.round(Number(first))}ms`
              : JSON.stringify(first);
        return [
          field,
          { value, envelope: found, detail: `${term.which} match #${found.envelope.seq}: ${term.field} is ${shown}` },
        ];
      }
      case 'field':
        throw new Error(
          `'${term.name}' is a field of one envelope; in an assertion use some, none, count(…) or first(…).${term.name}`,
        );
    }
  };

  return run(expr, null);
}

function lastMatch(
  subjects: readonly EnvelopeSubject[],
  match: (s: EnvelopeSubject) => boolean,
): EnvelopeSubject | undefined {
  for (let i = subjects.length - 1; i >= 0; i--) if (match(subjects[i]!)) return subjects[i];
  return undefined;
}
