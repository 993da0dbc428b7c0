import { describe, expect, it } from 'vitest';
import { caretLines, describeFilterError, FilterError } from './errors';
import { parseAssertion, parseFilter, printExpression } from './index';
import { MAX_DEPTH } from './parser';
import { completeFilter } from './complete';
import { ENVELOPE_FIELDS } from './envelope-fields';
import { seededRandom } from '../sse/rechunk';

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
    [
      'status == "finished"',
      10,
      'status is one of "done", "error", "incomplete", "truncated", "stopped", "failed", "paused"',
    ],
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
});

describe('garbage in the filter box', () => {
  it('is parsed or refused with a FilterError pointing inside it, and completion never throws (5,000 seeded inputs)', () => {
    const atoms = [
      ...ENVELOPE_FIELDS.names(),
      ...['==', '!=', '<', '<=', '>', '>=', '&&', '||', '!', '(', ')', '[', ']', ',', 'in', 'contains', 'matches'],
      ...['"', "'", '"abc"', '"(a+)+$"', '"\\u00"', '1', '-2', '3.5e9', '1e999', '10ms', '2s', 'true', 'false'],
      ...['.', '\\', '/re/', 'é', '😀', '\ud800', '\u0000', '\n', 'and', '*', '=', '&', '|'],
    ];
    const random = seededRandom(20_261_130);
    const outcomes = { parsed: 0, refused: 0 };
    const wrong: string[] = [];
    for (let i = 0; i < 5000; i++) {
      let source = '';
      for (let n = 1 + Math.floor(random() * 12); n > 0; n--)
        source += `${atoms[Math.floor(random() * atoms.length)] as string}${random() < 0.5 ? ' ' : ''}`;
      for (const parse of [parseFilter, parseAssertion]) {
        try {
          parse(source);
          outcomes.parsed++;
        } catch (error) {
          if (!(error instanceof FilterError)) wrong.push(`${JSON.stringify(source)}: ${String(error)}`);
          else if (error.at < 0 || error.at > source.length) wrong.push(`${JSON.stringify(source)}: at ${error.at}`);
          else outcomes.refused++;
        }
      }
      try {
        completeFilter(source, Math.floor(random() * (source.length + 1)), ENVELOPE_FIELDS);
      } catch (error) {
        wrong.push(`completing ${JSON.stringify(source)}: ${String(error)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(outcomes.parsed).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(5000);
  });
});
