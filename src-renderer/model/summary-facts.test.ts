import { describe, expect, it } from 'vitest';
import { summaryFacts } from './summary-facts';

describe('summaryFacts', () => {
  it("a provider message: its facts in the reader's order, usage as one tokens fact", () => {
    const facts = summaryFacts('message', {
      status: 'completed',
      model: 'demo-model',
      usage: { input_tokens: 52, output_tokens: 30 },
      stop_reason: 'tool-calls',
      other: 'not a summary fact',
    });
    expect(facts).toEqual([
      ['model', 'demo-model'],
      ['status', 'completed'],
      ['stop_reason', 'tool-calls'],
      ['tokens', '52 in · 30 out'],
    ]);
  });

  it('leaves out a field without a value: a v4 data stream names no model', () => {
    const facts = summaryFacts('message', { model: '', status: 'completed', stop_reason: null, error: undefined });
    expect(facts).toEqual([['status', 'completed']]);
  });

  it('a long value is cut at 90 characters; a payload that is no object has no facts', () => {
    const [[, value] = ['', '']] = summaryFacts('meta_init', { user_query: 'q'.repeat(200) });
    expect(value).toHaveLength(90);
    expect(value.endsWith('…')).toBe(true);
    expect(summaryFacts('message', ['model'])).toEqual([]);
    expect(summaryFacts('message', 'text')).toEqual([]);
  });

  it('a choice of several (n > 1) says which one, and that its usage is the whole completion', () => {
    const facts = summaryFacts('message', {
      model: 'gpt-4o',
      status: 'completed',
      usage: { input_tokens: 14, output_tokens: 10 },
      choice_index: 1,
    });
    expect(facts).toEqual([
      ['model', 'gpt-4o'],
      ['choice_index', '1'],
      ['status', 'completed'],
      ['tokens', '14 in · 10 out (all choices)'],
    ]);
  });
});
