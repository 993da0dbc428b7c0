import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import type { DecodeResult } from '../../pipeline/types';

/**
 * Every rule the Chat Completions dialect reports, its own and the shared ones it reuses: a
 * stream that triggers it, and one like it that must not.
 */

const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const chunk = (choices: unknown[], fields: Record<string, unknown> = {}): string =>
  data({ id: 'chatcmpl-r', object: 'chat.completion.chunk', model: 'gpt-test', choices, ...fields });
const delta = (d: Record<string, unknown>, finish: string | null = null, index = 0): string =>
  chunk([{ index, delta: d, finish_reason: finish }]);
const DONE = data('[DONE]');
const ROLE = delta({ role: 'assistant', content: '' });
const call = (index: number, fields: Record<string, unknown>, args: string): Record<string, unknown> => ({
  tool_calls: [
    { index, ...fields, function: { ...(fields['name'] ? { name: fields['name'] } : {}), arguments: args } },
  ],
});

const decode = (...events: string[]): DecodeResult => decodeProviderEvents(events);
const status = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;
const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;
/** The findings of `result` other than the tool calls left without results (every call here has none). */
const rules = (result: DecodeResult): string[] => rulesOf(result).filter((r) => r !== 'tool.call-without-result');

describe('openai-chat.invalid-chunk', () => {
  it('a chunk whose choices are no array, and JSON that is no object, are kept undecoded', () => {
    const result = decode(
      ROLE,
      data({ object: 'chat.completion.chunk', choices: 7 }),
      data([1, 2]),
      delta({}, 'stop'),
      DONE,
    );
    expect(rules(result)).toEqual(['openai-chat.invalid-chunk', 'openai-chat.invalid-chunk']);
    expect(result.diagnostics[0]?.message).toBe(
      'Event 1 has no choices array, usage or error, so it is no chat.completion.chunk; kept undecoded: "{\\"object\\":\\"chat.completion.chunk\\",\\"choices\\":7}"',
    );
    expect(result.envelopes.filter((e) => e.control === 'undecoded').map((e) => e.delta)).toEqual([
      '{"object":"chat.completion.chunk","choices":7}',
      '[1,2]',
    ]);
  });

  it('a choice, a delta or a tool call entry that is no object, and tool_calls that are no array nor object: that part undecoded, the rest read', () => {
    const result = decode(
      chunk([5, { index: 0, delta: 'text' }]),
      delta({ tool_calls: [null] }),
      delta({ tool_calls: 7 }, 'stop'),
      DONE,
    );
    expect(result.diagnostics.map((d) => d.message.split('; that part')[0])).toEqual([
      'Event 0 has a choice at position 0 that is no object',
      'Event 0 has a choice 0 whose delta is a JSON string',
      'Event 1 has a tool_calls entry for choice 0 that is a JSON null',
      'Event 2 has tool_calls for choice 0 that are a JSON number, not an array',
    ]);
    expect(result.diagnostics[3]?.message).toContain(
      "that part is not decoded (the event's data is kept undecoded beside it), the rest of the chunk is",
    );
    // The rest of that chunk is read: its finish_reason ends the choice.
    expect(summaryOf(result)).toMatchObject({ status: 'completed', stop_reason: 'stop' });
  });

  it('must not: a usage chunk without choices, an empty choices array, Azure’s placeholder', () => {
    const result = decode(
      data({ choices: [], id: '', model: '', object: '' }),
      ROLE,
      delta({ content: 'Hi' }, 'stop'),
      data({ id: 'chatcmpl-r', usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});

describe('openai-chat.no-finish-reason', () => {
  it('a choice cut off without its finish_reason: found, its text left open, the stream truncated', () => {
    const result = decode(ROLE, delta({ content: 'This answer never' }));
    expect(rules(result)).toEqual(['openai-chat.no-finish-reason', 'stream.missing-done', 'block.unterminated']);
    expect(result.diagnostics[0]?.at.frame).toBe(1);
    expect(status(result)).toBe('truncated');
  });

  it('a choice whose tool call never finished: the call stays an open block, its arguments not checked', () => {
    const result = decode(ROLE, delta(call(0, { id: 'c', name: 'f' }, '{"a":')), DONE);
    expect(rules(result)).toEqual(['openai-chat.no-finish-reason', 'block.unterminated']);
    expect(result.blocks.find((b) => b.kind === 'tool_call')).toMatchObject({ status: 'open', content: '{"a":' });
  });

  it('must not: a choice that finished, or choices an API error cut off', () => {
    expect(rules(decode(ROLE, delta({ content: 'Hi' }), delta({}, 'stop'), DONE))).toEqual([]);
    const failed = decode(ROLE, delta({ content: 'Hi' }), data({ error: { message: 'boom' } }));
    expect(rules(failed)).toEqual(['provider.api-error', 'block.unterminated']);
  });
});

describe('stream.missing-done (the pipeline, for this dialect too)', () => {
  it('every choice finished but no [DONE]: found, and the stream is truncated', () => {
    const result = decode(ROLE, delta({ content: 'Hi' }, 'stop'));
    expect(rules(result)).toEqual(['stream.missing-done']);
    expect(status(result)).toBe('truncated');
  });

  it('must not: a stream with its [DONE], nor one an API error ended', () => {
    expect(status(decode(ROLE, delta({ content: 'Hi' }, 'stop'), DONE))).toBe('done');
    expect(rules(decode(ROLE, data({ error: { message: 'boom', type: 'server_error' } })))).toEqual([
      'provider.api-error',
    ]);
  });
});

describe('provider.api-error', () => {
  it('data: {"error": …}, as the first event: the stream ends by error', () => {
    const result = decode(
      data({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }),
    );
    expect(result.formats).toEqual(['openai-chat']);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'The API sent an error in event 0 as the first event, before any chunk (the request was accepted, then failed): requests rate_limit_exceeded: Rate limit reached',
    ]);
    expect(status(result)).toBe('ended by error');
  });

  it('event: error, with JSON or with text', () => {
    const json = decode(ROLE, `event: error\ndata: ${JSON.stringify({ error: { message: 'Overloaded' } })}\n\n`);
    expect(json.diagnostics.map((d) => d.message)).toEqual(['The API sent an error in event 1: Overloaded']);
    const text = decode(ROLE, 'event: error\ndata: upstream timed out\n\n');
    expect(text.diagnostics.map((d) => d.message)).toEqual(['The API sent an error in event 1: upstream timed out']);
    expect(status(text)).toBe('ended by error');
  });

  it('an error member in a chunk (OpenRouter), and finish_reason error with none', () => {
    const member = decode(
      ROLE,
      chunk([{ index: 0, delta: {}, finish_reason: 'error' }], { error: { code: 502, message: 'gone' } }),
    );
    expect(member.diagnostics.map((d) => d.message)).toEqual(['The API sent an error in event 1: 502: gone']);
    const bare = decode(ROLE, delta({}, 'error'));
    expect(rules(bare)).toEqual(['provider.api-error']);
    expect(bare.diagnostics[0]?.message).toContain(
      'choice 0 finished with finish_reason "error" (no error member says why)',
    );
  });

  it('must not: "error": null beside the choices', () => {
    expect(
      rules(
        decode(ROLE, chunk([{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }], { error: null }), DONE),
      ),
    ).toEqual([]);
  });
});

describe('provider.response-incomplete', () => {
  it("finish_reason length, content_filter and DeepSeek's insufficient_system_resource: found, the message incomplete, the stream too", () => {
    const cutBy = {
      length: 'the token limit',
      content_filter: 'a content filter',
      insufficient_system_resource: "the server's inference resources running out",
    };
    for (const [reason, by] of Object.entries(cutBy)) {
      const result = decode(ROLE, delta({ content: 'Cut' }, reason), DONE);
      expect(rules(result)).toEqual(['provider.response-incomplete']);
      expect(result.diagnostics[0]?.message).toContain(`: ${by} cut its output short.`);
      expect(status(result)).toBe('incomplete');
    }
  });

  it("the names OpenAI-compatible servers give a cut: max_tokens, Mistral's model_length, vLLM's abort", () => {
    const cutBy = {
      max_tokens: 'the token limit',
      model_length: "the model's context length",
      abort: 'the server aborting the request',
    };
    for (const [reason, by] of Object.entries(cutBy)) {
      const result = decode(ROLE, delta({ content: 'Cut' }, reason), DONE);
      expect(rules(result), reason).toEqual(['provider.response-incomplete']);
      expect(result.diagnostics[0]?.message).toContain(`: ${by} cut its output short.`);
      expect(status(result)).toBe('incomplete');
      expect(summaryOf(result)).toMatchObject({ status: 'incomplete', incomplete_details: { reason } });
    }
  });

  it("must not: stop, tool_calls, function_call, and TGI's eos_token and stop_sequence (the model stopped)", () => {
    for (const reason of ['stop', 'tool_calls', 'function_call', 'eos_token', 'stop_sequence']) {
      const result = decode(ROLE, delta({ content: 'Done' }, reason), DONE);
      expect(rules(result), reason).toEqual([]);
      expect(status(result), reason).not.toBe('incomplete');
    }
  });
});

describe('provider.block-not-started', () => {
  it('argument text for a tool call index no fragment with an id and a name began', () => {
    const result = decode(ROLE, delta(call(2, {}, '{"q": 1}')), delta({}, 'tool_calls'), DONE);
    expect(rules(result)).toEqual(['provider.block-not-started']);
    expect(result.diagnostics[0]?.message).toBe(
      'Event 1 has argument text for tool call 2 of choice 0, which no fragment with an id and a name began; kept in a call without them, which a client cannot call.',
    );
    expect(result.blocks.find((b) => b.kind === 'tool_call')?.parsed).toEqual({ q: 1 });
  });

  it('argument text without index and no call open', () => {
    const result = decode(
      ROLE,
      delta({ tool_calls: [{ function: { arguments: '{}' } }] }),
      delta({}, 'tool_calls'),
      DONE,
    );
    expect(rules(result)).toEqual(['provider.block-not-started']);
  });

  it('must not: a first call at index 1, fragments after the first without id or name', () => {
    const result = decode(
      ROLE,
      delta(call(1, { id: 'c1', type: 'function', name: 'f' }, '')),
      delta(call(1, {}, '{"a"')),
      delta(call(1, {}, ':1}')),
      delta({}, 'tool_calls'),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});

describe('provider.block-started-twice', () => {
  it('a call with another id under an index whose call is open: two calls', () => {
    const result = decode(
      ROLE,
      delta(call(0, { id: 'a', name: 'f' }, '{}')),
      delta(call(0, { id: 'b', name: 'g' }, '{}')),
      delta({}, 'tool_calls'),
      DONE,
    );
    expect(rules(result)).toEqual(['provider.block-started-twice']);
    expect(result.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolId)).toEqual(['a', 'b']);
  });

  it('must not: the same id repeated on every fragment', () => {
    const result = decode(
      ROLE,
      delta(call(0, { id: 'a', name: 'f' }, '{"x":')),
      delta(call(0, { id: 'a' }, '1}')),
      delta({}, 'tool_calls'),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});

describe('provider.delta-after-stop', () => {
  it('content for a choice after its finish_reason: found, kept in a block of its own', () => {
    const result = decode(ROLE, delta({ content: 'Hi' }, 'stop'), delta({ content: ' late' }), DONE);
    expect(rules(result)).toEqual(['provider.delta-after-stop']);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => [b.content, b.status])).toEqual([
      ['Hi', 'complete'],
      [' late', 'complete'],
    ]);
  });

  it('must not: the usage chunk, an empty delta, the same finish_reason again', () => {
    const result = decode(
      ROLE,
      delta({ content: 'Hi' }, 'stop'),
      delta({ content: '' }, 'stop'),
      chunk([], { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});

describe('provider.next-message', () => {
  const second = (id: string, finish: string | null): string =>
    data({
      id,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: 'Again' }, finish_reason: finish }],
    });

  it('a chunk with another id after every choice finished begins the next completion', () => {
    const result = decode(ROLE, delta({ content: 'Hi' }, 'stop'), second('chatcmpl-2', 'stop'), DONE);
    expect(rules(result)).toEqual(['provider.next-message']);
    expect(result.blocks.filter((b) => b.kind === 'message').map((b) => (b.parsed as { id: string }).id)).toEqual([
      'chatcmpl-r',
      'chatcmpl-2',
    ]);
  });

  it('must not: another id while the choice is open (the same completion), a usage chunk with another id', () => {
    const result = decode(
      ROLE,
      second('chatcmpl-other', null),
      delta({}, 'stop'),
      data({ id: 'chatcmpl-usage', choices: [], usage: { prompt_tokens: 1 } }),
      DONE,
    );
    expect(rules(result)).toEqual([]);
    expect(result.blocks.filter((b) => b.kind === 'message')).toHaveLength(1);
  });
});

describe('provider.tool-args-invalid', () => {
  it('arguments that do not parse when the choice finishes', () => {
    const result = decode(ROLE, delta(call(0, { id: 'c', name: 'f' }, '{"a": 1')), delta({}, 'tool_calls'), DONE);
    // Said once: reconstruction's envelope.payload-json is the upstream formats' rule.
    expect(rules(result)).toEqual(['provider.tool-args-invalid']);
    expect(result.diagnostics[0]?.message).toContain(
      'The tool call 0 of choice 0 (f, c): its complete arguments do not parse',
    );
  });

  it('must not: arguments that parse, or none at all', () => {
    const result = decode(
      ROLE,
      delta(call(0, { id: 'c', name: 'f' }, '{"a": 1}')),
      delta(call(1, { id: 'd', name: 'g' }, '')),
      delta({}, 'tool_calls'),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});

describe('provider.unknown-event', () => {
  it('a chunk object and a finish_reason this version does not know, once each', () => {
    const result = decode(
      data({ id: 'x', object: 'chat.completion.delta', choices: [{ index: 0, delta: { content: 'a' } }] }),
      data({ id: 'x', object: 'chat.completion.delta', choices: [{ index: 0, delta: { content: 'b' } }] }),
      delta({}, 'eos'),
      DONE,
    );
    expect(rules(result)).toEqual(['provider.unknown-event', 'provider.unknown-event']);
    expect(result.diagnostics[1]?.message).toContain('without saying whether the output is whole');
    expect(status(result)).toBe('done');
  });

  it('must not: chat.completion.chunk, an empty object, the known finish reasons', () => {
    const result = decode(
      data({ object: '', choices: [{ index: 0, delta: { content: 'a' }, finish_reason: 'stop' }] }),
      DONE,
    );
    expect(rules(result)).toEqual([]);
  });
});
