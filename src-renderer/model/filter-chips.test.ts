import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../src-shared/filter';
import { applyChip, chipsOf, NO_CHIPS } from './filter-chips';

const pick = (expression: string, change: Parameters<typeof applyChip>[2]): string =>
  applyChip(expression, expression.trim() ? parseFilter(expression) : null, change);

describe('filter pickers as views of the expression', () => {
  it('writes each pick as its condition in the box', () => {
    expect(pick('', { agents: ['sub 1'] })).toBe('agent == "sub 1"');
    expect(pick('agent == "sub 1"', { agents: ['sub 1', 'main'] })).toBe('agent in ["sub 1", "main"]');
    expect(pick('agent in ["sub 1", "main"]', { types: ['tool_call'] })).toBe(
      'agent in ["sub 1", "main"] && type == "tool_call"',
    );
    expect(pick('type == "text"', { final: 'not-final' })).toBe('type == "text" && !final');
    expect(pick('type == "text" && !final', { final: 'final' })).toBe('type == "text" && final');
    expect(pick('type == "text"', { minSeverity: 'warning' })).toBe('type == "text" && finding.severity >= "warning"');
  });

  it("removes a picker's condition when it is set back to all, keeping the user's own conditions", () => {
    expect(pick('delta contains "x" && agent == "main" && (final || bytes > 10)', { agents: [] })).toBe(
      'delta contains "x" && (final || bytes > 10)',
    );
    expect(pick('agent == "main"', { agents: [] })).toBe('');
  });

  it('reads the pickers back from the expression, typed or picked', () => {
    expect(
      chipsOf(parseFilter('type in ["text", "thinking"] && agent == "sub 2" && !final && finding.severity >= "error"')),
    ).toEqual({
      agents: ['sub 2'],
      types: ['text', 'thinking'],
      final: 'not-final',
      minSeverity: 'error',
    });
    // Inside || or under !, a condition is the user's, not a picker's.
    expect(chipsOf(parseFilter('agent == "main" || type == "text"'))).toEqual(NO_CHIPS);
  });

  it('appends a pick as text to an expression that does not parse yet', () => {
    expect(applyChip('type ==', null, { final: 'final' })).toBe('type == && final');
  });
});
