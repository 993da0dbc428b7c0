import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/**
 * Parts a UI message stream left unended: a text or reasoning part without its end, a tool
 * call whose input never became available. A frontend (`processUIMessageStream`) keeps them as
 * they stand when the message finishes, and applies an output to a call still streaming its
 * input; only a stream cut before its finish (and `[DONE]`) leaves them open.
 */

/** The UI message stream of these chunks, `[DONE]` last unless `done` is false. */
function ui(chunks: readonly Record<string, unknown>[], done = true) {
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('');
  const result = decodeBytes(encodeUtf8(text + (done ? 'data: [DONE]\n\n' : '')));
  const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
  const blocks = result.blocks.filter((b) => b.kind !== 'message');
  return { ...result, rules: rulesOf(result), end, blocks };
}

const start = { type: 'start', messageId: 'msg-1' };
const finish = { type: 'finish', finishReason: 'stop' };
const unendedText = [
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Done now.' },
];
const streamedInput = (id: string, ...pieces: string[]) => [
  { type: 'tool-input-start', toolCallId: id, toolName: 'get_document' },
  ...pieces.map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: id, inputTextDelta })),
];

describe('text and reasoning parts without their end', () => {
  it('at the finish: closed there with their text, reported as a warning, the stream done', () => {
    const result = ui([
      start,
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'Think.' },
      ...unendedText,
      finish,
    ]);
    expect(result.end.kind).toBe('done');
    expect(result.rules).toEqual(['provider.block-not-stopped', 'provider.block-not-stopped']);
    expect(result.diagnostics.map((d) => d.message)).toContain(
      'The text part t1 started in event 3 got no end before finish (event 5); a frontend keeps the part as it stands, and its block ends there.',
    );
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([
      ['thinking', 'complete', 'Think.'],
      ['text', 'complete', 'Done now.'],
    ]);
  });

  it('at [DONE] with no finish: closed there too (a frontend ends the message with the stream)', () => {
    const result = ui([start, ...unendedText]);
    expect(result.end.kind).toBe('done');
    expect(result.rules).toEqual(['provider.block-not-stopped', 'ai-sdk.missing-finish']);
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([['text', 'complete', 'Done now.']]);
  });

  it('must not: a stream cut with neither finish nor [DONE] leaves the part open and is truncated', () => {
    const result = ui([start, ...unendedText], false);
    expect(result.end.kind).toBe('truncated');
    expect(result.rules).toEqual(['provider.block-not-stopped', 'provider.missing-terminal', 'block.unterminated']);
    expect(result.blocks.map((b) => [b.kind, b.status])).toEqual([['text', 'open']]);
  });
});

describe('text and reasoning parts a finish-step left open', () => {
  // processUIMessageStream empties its active text and reasoning parts at each finish-step.
  const step = [{ type: 'finish-step' }, { type: 'start-step' }];

  it('a later delta fails in a frontend: reported once, its text kept in the part', () => {
    const result = ui([start, ...unendedText, ...step, { type: 'text-delta', id: 't1', delta: ' More.' }, finish]);
    expect(result.rules).toEqual(['provider.delta-after-stop', 'provider.block-not-stopped']);
    expect(result.diagnostics[0]?.message).toBe(
      "text-delta in event 5 is for text part t1, which the finish-step in event 3 ended for a frontend (useChat forgets the step's open parts there): a frontend fails on it. The text is kept in the part's block; later events of the part are not reported again.",
    );
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([['text', 'Done now. More.']]);
  });

  it('a later end of a reasoning part fails too; it is the one finding of that part', () => {
    const result = ui([
      start,
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'A' },
      ...step,
      { type: 'reasoning-delta', id: 'r1', delta: 'B' },
      { type: 'reasoning-end', id: 'r1' },
      finish,
    ]);
    expect(result.rules).toEqual(['provider.delta-after-stop']);
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([['thinking', 'complete', 'AB']]);
  });

  it('must not: a part ended before its finish-step, and a new step reusing its id, give no finding', () => {
    const part = [...unendedText, { type: 'text-end', id: 't1' }];
    const result = ui([start, ...part, ...step, ...part, { type: 'finish-step' }, finish]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.map((b) => b.content)).toEqual(['Done now.', 'Done now.']);
  });

  it('must not: the id started again after the finish-step is a new part, not a replay (the old one unended)', () => {
    const result = ui([start, ...unendedText, ...step, ...unendedText, { type: 'text-end', id: 't1' }, finish]);
    expect(result.end.kind).toBe('done');
    expect(result.rules).toEqual(['provider.block-not-stopped']);
    expect(result.blocks.map((b) => [b.status, b.content])).toEqual([
      ['complete', 'Done now.'],
      ['complete', 'Done now.'],
    ]);
  });
});

describe('a tool call whose input never became available', () => {
  it('its output makes the call, with the input streamed so far, and links to it', () => {
    const result = ui([start, ...streamedInput('call_1', '{', '}'), outputOf('call_1', 'SECTIONS: []'), finish]);
    expect(result.end.kind).toBe('done');
    expect(result.rules).toEqual(['provider.block-not-stopped']);
    expect(result.diagnostics[0]?.message).toBe(
      'The input of tool call call_1 (get_document) started streaming in event 1 and was never made available before tool-output-available (event 4) gave its output; its block holds the input streamed so far.',
    );
    const [call, output] = result.blocks;
    expect([call?.kind, call?.toolId, call?.name, call?.content]).toEqual([
      'tool_call',
      'call_1',
      'get_document',
      '{}',
    ]);
    expect([output?.kind, output?.content, output?.linkedBlock]).toEqual(['tool_result', 'SECTIONS: []', call?.id]);
  });

  it('without any input streamed the call holds {}; input that does not parse is kept as it came', () => {
    const none = ui([start, ...streamedInput('c'), outputOf('c', 'ok'), finish]);
    expect(none.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['tool_call', '{}'],
      ['tool_result', 'ok'],
    ]);
    const partial = ui([start, ...streamedInput('c', '{"id":'), errorOf('c'), finish]);
    expect(partial.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['tool_call', '{"id":'],
      ['tool_result', 'boom'],
    ]);
    expect(partial.rules).not.toContain('tool.result-without-call');
  });

  it('at the finish with no output: the call is made there, not awaited from the frontend', () => {
    const result = ui([start, ...streamedInput('c', '{"id":1}'), finish]);
    expect(result.end.kind).toBe('done');
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([['tool_call', '{"id":1}']]);
    expect(result.rules).toEqual(['provider.block-not-stopped', 'tool.call-without-result']);
  });

  it('must not: a call made available before its output is one call block, nothing reported', () => {
    const result = ui([
      start,
      ...streamedInput('c', '{}'),
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'get_document', input: {} },
      outputOf('c', 'ok'),
      finish,
    ]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.map((b) => b.kind)).toEqual(['tool_call', 'tool_result']);
  });
});

function outputOf(id: string, output: unknown): Record<string, unknown> {
  return { type: 'tool-output-available', toolCallId: id, output };
}

function errorOf(id: string): Record<string, unknown> {
  return { type: 'tool-output-error', toolCallId: id, errorText: 'boom' };
}
