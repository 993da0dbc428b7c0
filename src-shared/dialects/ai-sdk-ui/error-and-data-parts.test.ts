import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/**
 * What the SDK writes around a call it could not use, and data parts a later part replaces:
 * the shapes of the recorded capture `vercel-ai/ui-message-stream-tool-input-error.sse` and of
 * `processUIMessageStream`'s data-part reconciliation, each alone.
 */

function ui(chunks: readonly Record<string, unknown>[]) {
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('');
  const result = decodeBytes(encodeUtf8(`${text}data: [DONE]\n\n`));
  return { ...result, rules: rulesOf(result) };
}

const start = { type: 'start', messageId: 'msg-1' };
const finish = { type: 'finish', finishReason: 'stop' };
const invalid = 'Invalid input for tool search: Type validation failed';

describe('a call whose input the server could not use', () => {
  it('the tool-output-error streamText sends after its tool-input-error: one error result, no claim that the tool ran', () => {
    const result = ui([
      start,
      { type: 'tool-input-start', toolCallId: 'c', toolName: 'search' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{"q":1}' },
      { type: 'tool-input-error', toolCallId: 'c', toolName: 'search', input: { q: 1 }, errorText: invalid },
      { type: 'tool-output-error', toolCallId: 'c', errorText: invalid },
      finish,
    ]);
    expect(result.rules).toEqual(['ai-sdk.tool-input-error']);
    const [call, error, ...more] = result.blocks.filter((b) => b.kind !== 'message');
    expect(more).toEqual([]);
    expect(call).toMatchObject({ kind: 'tool_call', toolId: 'c', content: '{"q":1}' });
    expect(error).toMatchObject({ kind: 'tool_result', toolId: 'c', content: invalid, linkedBlock: call?.id });
    const last = result.envelopes.find((e) => e.type === 'tool-output-error');
    expect(last?.unified).toMatchObject({ family: 'stream.tool_call_result', phase: 'failed', error: invalid });
  });

  it('its input that is no JSON (the text the model wrote) is the call’s input as that text, not a JSON string of it', () => {
    const raw = '{"q":"shoes"';
    const result = ui([
      start,
      { type: 'tool-input-error', toolCallId: 'c', toolName: 'search', input: raw, errorText: invalid },
      finish,
    ]);
    expect(result.blocks[0]).toMatchObject({ kind: 'tool_call', content: raw });
  });
});

describe('data parts', () => {
  it('one with the type and id of an earlier one replaces its data in the message a continuation sends; a transient one is not in it', () => {
    const result = ui([
      start,
      { type: 'data-weather', id: 'w', data: { status: 'loading' } },
      { type: 'data-status', data: 'busy', transient: true },
      { type: 'data-weather', id: 'x', data: { status: 'other' } },
      { type: 'data-weather', id: 'w', data: { status: 'done' } },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 'confirm', input: {} },
      finish,
    ]);
    const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    const message = (pause?.parsed as { message: { parts: unknown[] } }).message;
    expect(message.parts).toEqual([
      { type: 'data-weather', id: 'w', data: { status: 'done' } },
      { type: 'data-weather', id: 'x', data: { status: 'other' } },
      expect.objectContaining({ type: 'tool-confirm', toolCallId: 'c', state: 'input-available' }),
    ]);
    // Each part is still a block as it came; the one that replaced another says so.
    const weather = result.envelopes.filter((e) => e.type === 'data-weather');
    expect(weather.map((e) => [e.extras['id'], e.extras['replaces']])).toEqual([
      ['w', undefined],
      ['x', undefined],
      ['w', true],
    ]);
  });

  it('must not: one that replaces the part just before it is said to be content after that part’s end', () => {
    const result = ui([
      start,
      { type: 'data-weather', id: 'w', data: { status: 'loading' } },
      { type: 'data-weather', id: 'w', data: { status: 'done' } },
      finish,
    ]);
    expect(result.rules).toEqual([]);
    expect(result.blocks.filter((b) => b.kind === 'data-weather').map((b) => b.content)).toEqual([
      '{"status":"loading"}',
      '{"status":"done"}',
    ]);
  });
});

describe('a call without output in a message an error part ended', () => {
  const call = { type: 'tool-input-available', toolCallId: 'c', toolName: 'lookup', input: { q: 'a' } };
  const pauseOf = (result: ReturnType<typeof ui>) => result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');

  it('waits for nothing: the run failed there, and useChat stops reading at the error part (no pause, no answer panel)', () => {
    const result = ui([
      start,
      call,
      { type: 'error', errorText: 'Unknown tool' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(result.rules).toEqual(['provider.api-error', 'tool.call-without-result']);
    expect(pauseOf(result)).toBeUndefined();
    expect(result.blocks.map((b) => b.kind)).toEqual(['tool_call', 'error', 'message']);
  });

  it('the same in a v4 data stream: 9:, 3:, then d: with finishReason error', () => {
    const lines = [
      'f:{"messageId":"msg-0"}',
      '9:{"toolCallId":"c","toolName":"lookup","args":{"q":"a"}}',
      '3:"Unknown tool"',
      'd:{"finishReason":"error","usage":{"promptTokens":1,"completionTokens":2}}',
    ];
    const result = decodeBytes(encodeUtf8(lines.map((l) => `${l}\n`).join('')));
    expect(result.blocks.map((b) => b.kind)).toEqual(['tool_call', 'error', 'message']);
  });

  it('must not: the same call in a message that finished without an error still waits for the frontend', () => {
    const result = ui([start, call, { type: 'finish', finishReason: 'tool-calls' }]);
    expect(result.rules).toEqual([]);
    expect(pauseOf(result)?.pendingTools).toEqual([{ toolUseId: 'c', name: 'lookup', input: { q: 'a' } }]);
  });
});
