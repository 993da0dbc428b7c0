import { describe, expect, it, test } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes, decodeLegs } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/** The UI message stream of these chunks, as `toUIMessageStreamResponse` writes it (`[DONE]` last unless cut). */
function ui(chunks: readonly (Record<string, unknown> | string)[], done = true) {
  const text = chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join('');
  const result = decodeBytes(encodeUtf8(text + (done ? 'data: [DONE]\n\n' : '')));
  const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
  return { ...result, rules: rulesOf(result), end };
}

const start = { type: 'start', messageId: 'msg-1' };
const finish = { type: 'finish', finishReason: 'stop' };
const text = (id: string, ...deltas: string[]) => [
  { type: 'text-start', id },
  ...deltas.map((delta) => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
const tool = (id: string, pieces: readonly string[], input: unknown) => [
  { type: 'tool-input-start', toolCallId: id, toolName: 'get_weather' },
  ...pieces.map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: id, inputTextDelta })),
  { type: 'tool-input-available', toolCallId: id, toolName: 'get_weather', input },
];

describe('a healthy stream', () => {
  it('must not: text, tools with output, sources and data give no finding and end done', () => {
    const result = ui([
      start,
      { type: 'start-step' },
      ...text('t', 'Hi'),
      ...tool('c', ['{"city":', '"Paris"}'], { city: 'Paris' }),
      { type: 'tool-output-available', toolCallId: 'c', output: { celsius: 21 } },
      { type: 'source-url', sourceId: 's', url: 'https://example.com' },
      { type: 'data-weather', data: { ok: true }, transient: true },
      { type: 'finish-step' },
      finish,
    ]);
    expect(result.rules).toEqual([]);
    expect(result.end.kind).toBe('done');
  });

  it('must not: a stream that ends at its finish part without [DONE] is done', () => {
    const result = ui([start, ...text('t', 'Hi'), finish], false);
    expect(result.rules).toEqual([]);
    expect(result.end.kind).toBe('done');
  });

  it('must not: start parts repeated inside one message (merged streams) name it and change nothing', () => {
    const result = ui([start, ...text('t', 'a'), { type: 'start' }, ...text('u', 'b'), finish]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.filter((b) => b.kind === 'message')).toHaveLength(1);
  });
});

describe('parts for ids never started, or already ended', () => {
  it('a text delta for an id no text-start began: reported, its text kept in a block of its own', () => {
    const result = ui([
      start,
      { type: 'text-delta', id: 'ghost', delta: 'boo' },
      { type: 'text-end', id: 'ghost' },
      finish,
    ]);
    expect(result.rules).toEqual(['provider.block-not-started']);
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('boo');
  });

  it('a reasoning delta after its end: reported and kept as an event', () => {
    const result = ui([
      start,
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'late' },
      finish,
    ]);
    expect(result.rules).toEqual(['provider.delta-after-stop']);
    expect(result.envelopes.find((e) => e.type === 'reasoning-delta')?.extras).toMatchObject({ delta: 'late' });
  });

  it('a tool input delta for a call never started', () => {
    const result = ui([start, { type: 'tool-input-delta', toolCallId: 'x', inputTextDelta: '{' }, finish]);
    expect(result.rules).toEqual(['provider.block-not-started']);
  });

  it('must not: reasoning parts open at once keep their own text, with no finding (streamText interleaves them)', () => {
    const reasoning = (type: string, id: string, delta?: string) => ({ type: `reasoning-${type}`, id, delta });
    const result = ui([
      start,
      reasoning('start', 'a'),
      reasoning('delta', 'a', 'A1'),
      reasoning('start', 'b'),
      reasoning('delta', 'b', 'B1'),
      reasoning('delta', 'a', 'A2'),
      reasoning('end', 'a'),
      reasoning('delta', 'b', 'B2'),
      reasoning('end', 'b'),
      finish,
    ]);
    expect(result.rules).toEqual([]);
    expect(result.end.kind).toBe('done');
    // One open block per kind in reconstruction: a part continued after another opened goes on in a block of its own.
    expect(result.blocks.filter((b) => b.kind === 'thinking').map((b) => [b.toolId, b.content])).toEqual([
      ['a', 'A1'],
      ['b', 'B1'],
      ['a', 'A2'],
      ['b', 'B2'],
    ]);
    // The frontend's message has one part each, its whole text.
    const paused = ui([
      start,
      reasoning('start', 'a'),
      reasoning('start', 'b'),
      reasoning('delta', 'a', 'x'),
      reasoning('end', 'b'),
      reasoning('end', 'a'),
      ...tool('c', [], {}),
      finish,
    ]);
    expect(paused.rules).toEqual([]);
    const parts = (
      paused.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.parsed as { message: { parts: unknown[] } }
    ).message.parts;
    expect(parts.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'x', state: 'done' },
      { type: 'reasoning', text: '', state: 'done' },
    ]);
  });

  it('a text part started again while open, and one never ended at the finish (closed there)', () => {
    const result = ui([start, { type: 'text-start', id: 't' }, { type: 'text-start', id: 't' }, finish]);
    expect(result.rules).toEqual(['provider.block-started-twice', 'block.restarted', 'provider.block-not-stopped']);
  });
});

describe('tool calls', () => {
  it('streamed input that does not parse when it is made available', () => {
    const result = ui([start, ...tool('c', ['{"city":', '"Paris"'], { city: 'Paris' }), finish]);
    expect(result.rules).toContain('provider.tool-args-invalid');
  });

  it('must not: a call made available whole, without streamed input', () => {
    const result = ui([
      start,
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'f', input: { a: 1 } },
      { type: 'tool-output-available', toolCallId: 'c', output: 'ok' },
      finish,
    ]);
    expect(result.rules).toEqual([]);
  });

  it('tool-input-error and tool-output-error are reported; their error is the call’s result', () => {
    const result = ui([
      start,
      { type: 'tool-input-error', toolCallId: 'a', toolName: 'f', input: 'x', errorText: 'Invalid input' },
      ...tool('b', [], { city: 'Paris' }),
      { type: 'tool-output-error', toolCallId: 'b', errorText: 'timeout' },
      finish,
    ]);
    expect(result.rules).toEqual(['ai-sdk.tool-input-error', 'ai-sdk.tool-output-error']);
    const results = result.blocks.filter((b) => b.kind === 'tool_result');
    expect(results.map((r) => r.content)).toEqual(['Invalid input', 'timeout']);
    expect(result.end.kind).toBe('done');
  });

  it("an error of a tool the provider ran is the provider's result, linked to its call", () => {
    const ran = {
      type: 'tool-input-available',
      toolCallId: 'p',
      toolName: 'web_search',
      input: {},
      providerExecuted: true,
    };
    const result = ui([
      start,
      ran,
      { type: 'tool-output-error', toolCallId: 'p', errorText: 'ERROR', providerExecuted: true },
      finish,
    ]);
    expect(result.rules).toEqual(['ai-sdk.tool-output-error']);
    const [call, error] = result.blocks;
    expect(error).toMatchObject({ kind: 'server_tool_result', content: 'ERROR', linkedBlock: call?.id });
    // The chunk's own flag says so when the call came in an earlier response.
    const alone = ui([
      start,
      { type: 'tool-output-error', toolCallId: 'q', errorText: 'ERROR', providerExecuted: true },
      finish,
    ]);
    expect(alone.blocks[0]?.kind).toBe('server_tool_result');
  });

  it('must not: a denied call is no tool error', () => {
    const result = ui([start, ...tool('c', [], {}), { type: 'tool-output-denied', toolCallId: 'c' }, finish]);
    expect(result.rules).toEqual([]);
  });

  it('a call the provider ran is no pause; a client call is, and so is a call waiting for its approval', () => {
    const providerRan = ui([
      start,
      { type: 'tool-input-available', toolCallId: 'p', toolName: 'web_search', input: {}, providerExecuted: true },
      finish,
    ]);
    expect(providerRan.end.kind).toBe('done');
    expect(ui([start, ...tool('c', [], {}), finish]).end.kind).toBe('paused');
    const approval = ui([
      start,
      ...tool('c', [], {}),
      { type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' },
      finish,
    ]);
    expect(approval.end.kind).toBe('paused');
    const pause = approval.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools).toEqual([{ toolUseId: 'c', name: 'get_weather', input: {}, approvalId: 'a' }]);
    // The frontend's message holds the part as the SDK does: approval requested, with its id.
    expect((pause?.parsed as { message: { parts: unknown[] } }).message.parts).toContainEqual(
      expect.objectContaining({ toolCallId: 'c', state: 'approval-requested', approval: { id: 'a' } }),
    );
    // A call the provider runs waits too when it needs an approval.
    const providerApproval = ui([
      start,
      { type: 'tool-input-available', toolCallId: 'p', toolName: 'web_search', input: {}, providerExecuted: true },
      { type: 'tool-approval-request', approvalId: 'b', toolCallId: 'p' },
      finish,
    ]);
    expect(providerApproval.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.pendingTools).toEqual([
      { toolUseId: 'p', name: 'web_search', input: {}, approvalId: 'b' },
    ]);
  });

  it('an approval request without its approvalId is an invalid event, kept; the call waits as a client call', () => {
    const result = ui([start, ...tool('c', [], {}), { type: 'tool-approval-request', toolCallId: 'c' }, finish]);
    expect(result.rules).toEqual(['provider.invalid-event']);
    expect(result.diagnostics[0]?.message).toMatch(/lacks its string field approvalId/);
    expect(result.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.pendingTools).toEqual([
      { toolUseId: 'c', name: 'get_weather', input: {} },
    ]);
  });

  it('a preliminary output is an event; the last output is the result', () => {
    const result = ui([
      start,
      ...tool('c', [], {}),
      { type: 'tool-output-available', toolCallId: 'c', output: 'step 1', preliminary: true },
      { type: 'tool-output-available', toolCallId: 'c', output: 'done' },
      finish,
    ]);
    expect(result.blocks.filter((b) => b.kind === 'tool_result').map((b) => b.content)).toEqual(['done']);
    expect(rulesOf(result)).toEqual([]);
  });

  it('a preliminary output for an id no call of the session had is reported once, with its result', () => {
    const stray = { type: 'tool-output-available', toolCallId: 'ghost', output: 'step 1', preliminary: true };
    const result = ui([
      start,
      stray,
      stray,
      { type: 'tool-output-available', toolCallId: 'ghost', output: 'x' },
      finish,
    ]);
    expect(rulesOf(result)).toEqual(['tool.result-without-call']);
    expect(result.diagnostics[0]?.message).toContain('The preliminary output in tool-output-available has id ghost');
  });

  it("must not: the preliminary outputs of a call an earlier leg made (an approval's continuation)", () => {
    const leg = (chunks: Record<string, unknown>[]) => [
      { bytes: encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n') },
    ];
    const output = (preliminary: boolean) => ({
      type: 'tool-output-available',
      toolCallId: 'c',
      output: 1,
      preliminary,
    });
    const result = decodeLegs([
      leg([start, ...tool('c', [], {}), { type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' }, finish]),
      leg([start, output(true), output(false), finish]),
    ]);
    expect(rulesOf(result)).toEqual([]);
  });
});

describe('how the stream ends', () => {
  it('an error part: reported as an error, the stream ended by error even though finish and [DONE] follow', () => {
    const result = ui([
      start,
      { type: 'text-start', id: 't' },
      { type: 'error', errorText: 'Overloaded' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.rules).toEqual(['provider.api-error']);
    expect(result.end).toMatchObject({ kind: 'error', reason: expect.stringContaining('Overloaded') as string });
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ status: 'failed' });
  });

  it('an abort part: reported, the message unfinished, the stream ended by error', () => {
    const result = ui([start, { type: 'text-start', id: 't' }, { type: 'abort', reason: 'user' }]);
    expect(result.rules).toEqual(['ai-sdk.aborted']);
    expect(result.end).toMatchObject({ kind: 'error', reason: expect.stringContaining('aborted: user') as string });
  });

  test.each([
    ['length', 'the token limit'],
    ['content-filter', 'a content filter'],
  ])('finishReason %s: provider.response-incomplete, the message and the stream incomplete', (reason, cutBy) => {
    const result = ui([start, ...text('t', 'Once upon a'), { type: 'finish', finishReason: reason }]);
    expect(result.rules).toEqual(['provider.response-incomplete']);
    expect(result.diagnostics[0]?.message).toContain(`${cutBy} cut the message's output short`);
    expect(result.end.kind).toBe('incomplete');
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason },
    });
  });

  it('must not: finishReason stop, tool-calls, other or none is no incomplete output', () => {
    for (const reason of ['stop', 'tool-calls', 'other', undefined]) {
      const result = ui([start, ...text('t', 'a'), { type: 'finish', ...(reason ? { finishReason: reason } : {}) }]);
      expect(result.rules, reason).toEqual([]);
      expect(result.end.kind, reason).toBe('done');
    }
  });

  it('no finish and no [DONE]: cut, truncated', () => {
    const result = ui([start, ...text('t', 'a')], false);
    expect(result.rules).toEqual(['provider.missing-terminal']);
    expect(result.end.kind).toBe('truncated');
  });

  it('[DONE] but no finish: a deviation (a warning), the stream done', () => {
    const result = ui([start, ...text('t', 'a')]);
    expect(result.rules).toEqual(['ai-sdk.missing-finish']);
    expect(result.end.kind).toBe('done');
  });

  it('parts after the finish: reported once; a new start after it is the next message', () => {
    const late = ui([start, finish, ...text('t', 'late', 'later')]);
    expect(late.rules).toEqual(['ai-sdk.after-finish']);
    const next = ui([
      start,
      ...text('t', 'a'),
      finish,
      { type: 'start', messageId: 'msg-2' },
      ...text('u', 'b'),
      finish,
    ]);
    expect(next.rules).toEqual(['provider.next-message']);
    expect(next.blocks.filter((b) => b.kind === 'message').map((b) => b.agent)).toEqual(['msg-1', 'msg-2']);
  });
});

describe('chunks that are not what their type says', () => {
  test.each([
    ['a text delta without its delta', { type: 'text-delta', id: 't' }],
    ['a tool call without its name', { type: 'tool-input-available', toolCallId: 'c', input: {} }],
    ['an error without its errorText', { type: 'error', errorText: 7 }],
  ])('%s: reported, kept as an event', (_name, chunk) => {
    const result = ui([start, { type: 'text-start', id: 't' }, chunk, { type: 'text-end', id: 't' }, finish]);
    expect(result.rules).toEqual(['provider.invalid-event']);
  });

  it('a chunk type newer than the inspector: reported once, kept', () => {
    const result = ui([start, { type: 'text-future', id: 't' }, { type: 'text-future', id: 'u' }, finish]);
    expect(result.rules).toEqual(['provider.unknown-event']);
    expect(result.envelopes.filter((e) => e.type === 'text-future')).toHaveLength(2);
  });

  it('text deltas read without JSON.parse decode as parsed ones do', () => {
    const compact = ui([start, ...text('t', 'a "quote"\n', '日本 😀')]);
    const spaced = ui([
      start,
      { type: 'text-start', id: 't' },
      '{ "type": "text-delta", "id": "t", "delta": "a \\"quote\\"\\n" }',
      '{"id":"t","type":"text-delta","delta":"日本 😀"}',
      { type: 'text-end', id: 't' },
    ]);
    expect(compact.blocks[0]?.content).toBe('a "quote"\n日本 😀');
    expect(spaced.blocks[0]?.content).toBe(compact.blocks[0]?.content);
  });
});
