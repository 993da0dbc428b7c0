import { describe, expect, it } from 'vitest';
import { completeFilter } from './complete';
import { ENVELOPE_FIELDS } from './envelope-fields';

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
