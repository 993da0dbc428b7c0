import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, rulesOf } from '../../../src-main/testing/provider-streams';
import { ToolCalls } from './tool-calls';

const fragment = (fields: Record<string, unknown>, fn: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...fields,
  function: fn,
});

describe('tool calls of one choice', () => {
  it('joins the fragments of each index: id and name from the first, arguments from all', () => {
    const calls = new ToolCalls();
    expect(calls.add(fragment({ index: 0, id: 'a' }, { name: 'f', arguments: '' })).kind).toBe('started');
    expect(calls.add(fragment({ index: 1, id: 'b' }, { name: 'g', arguments: '{' })).kind).toBe('started');
    expect(calls.add(fragment({ index: 0 }, { arguments: '{"x":' })).kind).toBe('appended');
    expect(calls.add(fragment({ index: 0 }, { arguments: '1}' })).kind).toBe('appended');
    expect(calls.add(fragment({ index: 1 }, { arguments: '}' })).kind).toBe('appended');
    expect(calls.take().map((c) => [c.label, c.id, c.name, c.args.join('')])).toEqual([
      ['tool call 0', 'a', 'f', '{"x":1}'],
      ['tool call 1', 'b', 'g', '{}'],
    ]);
    expect(calls.size).toBe(0);
  });

  it('whole calls without index are calls of their own; a nameless one continues the last', () => {
    const calls = new ToolCalls();
    calls.add(fragment({ id: 'a' }, { name: 'f', arguments: '{"q":' }));
    expect(calls.add(fragment({}, { arguments: '1}' })).kind).toBe('appended');
    calls.add(fragment({ id: 'b' }, { name: 'f', arguments: { q: 2 } }));
    expect(calls.take().map((c) => [c.label, c.id, c.args.join('')])).toEqual([
      ['tool call without index 0', 'a', '{"q":1}'],
      ['tool call without index 1', 'b', '{"q":2}'],
    ]);
  });

  it('nameless fragments without index continue the call begun at their place in the array (Moonshot)', () => {
    const calls = new ToolCalls();
    calls.add(fragment({ id: 'w' }, { name: 'weather', arguments: '' }), false, 0);
    calls.add(fragment({ id: 't' }, { name: 'time', arguments: '' }), false, 1);
    expect(calls.add(fragment({}, { arguments: '{"city":"Paris"}' }), false, 0).kind).toBe('appended');
    expect(calls.add(fragment({}, { arguments: '{"zone":"UTC"}' }), false, 1).kind).toBe('appended');
    expect(calls.take().map((c) => [c.id, c.args.join('')])).toEqual([
      ['w', '{"city":"Paris"}'],
      ['t', '{"zone":"UTC"}'],
    ]);
  });

  it('arguments for an index never begun, and a second id under an open index, are said', () => {
    const calls = new ToolCalls();
    expect(calls.add(fragment({ index: 3 }, { arguments: '{}' })).kind).toBe('not-started');
    expect(calls.add(fragment({}, { arguments: 'x' })).kind).toBe('appended');
    calls.add(fragment({ index: 0, id: 'a' }, { name: 'f' }));
    const second = calls.add(fragment({ index: 0, id: 'b' }, { name: 'f' }));
    expect(second.kind === 'restarted' && second.previous.id).toBe('a');
    expect(calls.take().map((c) => c.id)).toEqual(['', 'a', 'b']);
    expect(new ToolCalls().add(fragment({}, { arguments: '{}' })).kind).toBe('not-started');
  });

  it('the legacy function_call is one call; fragments that are no object are refused', () => {
    const calls = new ToolCalls();
    expect(calls.add({ name: 'legacy', arguments: '{' }, true).kind).toBe('started');
    expect(calls.add({ arguments: '}' }, true).kind).toBe('appended');
    expect(calls.add('nope').kind).toBe('invalid');
    expect(calls.take().map((c) => [c.label, c.name, c.args.join('')])).toEqual([
      ['the function_call', 'legacy', '{}'],
    ]);
  });
});

describe('calls at a finish that cut the output short', () => {
  const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
  const chunk = (choice: Record<string, unknown>): string =>
    data({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, ...choice }] });
  const call = (index: number, id: string, args: string) =>
    chunk({ delta: { tool_calls: [{ index, id, type: 'function', function: { name: 'lookup', arguments: args } }] } });
  const callsOf = (result: ReturnType<typeof decodeProviderEvents>) =>
    result.blocks.filter((b) => b.kind === 'tool_call').map((b) => [b.toolId, b.status, b.content]);

  it('a call the token limit stopped inside its arguments is left open as sent, not said to be complete', () => {
    const result = decodeProviderEvents([
      call(0, 'a', '{"value": 1}'),
      call(1, 'b', '{"value":'),
      chunk({ delta: {}, finish_reason: 'length' }),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).not.toContain('provider.tool-args-invalid');
    expect(rulesOf(result)).toContain('provider.response-incomplete');
    expect(callsOf(result)).toEqual([
      ['a', 'complete', '{"value": 1}'],
      ['b', 'open', '{"value":'],
    ]);
  });

  it('must not: arguments that do not parse at a finish that cut nothing short are reported', () => {
    const result = decodeProviderEvents([
      call(0, 'a', '{"value":'),
      chunk({ delta: {}, finish_reason: 'tool_calls' }),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual(['provider.tool-args-invalid']);
    expect(callsOf(result)).toEqual([['a', 'complete', '{"value":']]);
  });
});
