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

  it("a failed message's request id follows its error, the id its provider's support asks for", () => {
    const facts = summaryFacts('message', {
      status: 'failed',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_011CWk7n2Ynp2yKSdBx5P3uH',
    });
    expect(facts.map(([key]) => key)).toEqual(['status', 'error', 'request_id']);
    expect(facts[2]).toEqual(['request_id', 'req_011CWk7n2Ynp2yKSdBx5P3uH']);
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

  it("a response's moderation as one fact: each side checked, a flagged one with its categories", () => {
    const moderation = {
      input: { type: 'moderation_result', flagged: false, categories: { violence: false } },
      output: { type: 'moderation_result', flagged: true, categories: { violence: true, hate: false, illicit: true } },
    };
    expect(summaryFacts('message', { status: 'completed', moderation })).toEqual([
      ['status', 'completed'],
      ['moderation', 'input ok · output flagged (violence, illicit)'],
    ]);
  });

  it('a moderation it cannot read is shown as the API gave it; on another kind it is no fact', () => {
    expect(summaryFacts('message', { moderation: { input: { type: 'pending' } } })).toEqual([
      ['moderation', '{"input":{"type":"pending"}}'],
    ]);
    const moderation = { input: { flagged: true, categories: { hate: true } } };
    expect(summaryFacts('meta_final', { moderation }).map(([key]) => key)).not.toContain('moderation');
  });

  it("an interrupted run's interrupts as one fact: each one's reason, else its id; one it cannot read as given", () => {
    const interrupts = [
      { id: 'v1:tool_call:1', reason: 'schedule_meeting', metadata: { topic: 'Intro' } },
      { id: 'approval-2' },
    ];
    expect(summaryFacts('message', { status: 'interrupted', stop_reason: 'interrupt', interrupts })).toEqual([
      ['status', 'interrupted'],
      ['stop_reason', 'interrupt'],
      ['interrupts', 'schedule_meeting, approval-2'],
    ]);
    expect(summaryFacts('message', { interrupts: { reason: 'x' } })).toEqual([['interrupts', '{"reason":"x"}']]);
  });
});
