import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { lastLegStatus, rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/** A Gemini SSE stream (CRLF framed, as the API frames it) of these chunks. */
const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')));

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  modelVersion: 'gemini-test',
  responseId: 'r1',
});
const text = (value: string) => chunk([{ text: value }]);
const code = { executableCode: { language: 'PYTHON', code: 'print(1 + 1)\n' } };
const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } };
const STOP = { finishReason: 'STOP' };
const content = (decoded: ReturnType<typeof stream>) =>
  decoded.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content]);

describe('a STOP that hands the turn to the code it asks to run (code-handoff.ts)', () => {
  it('must not: the result and the answer after it are no content after the finish; the answer is one block', () => {
    // As the API streams code execution (pydantic-ai/gemini-code-execution.crlf.sse).
    const decoded = stream(
      text('Let me run it.'),
      chunk([code], STOP),
      chunk([result]),
      text('The answer'),
      text(' is 2.'),
      chunk([{ text: '' }], STOP),
    );
    expect(rulesOf(decoded)).toEqual([]);
    expect(lastLegStatus(decoded)).toBe('done');
    expect(content(decoded)).toEqual([
      ['text', 'Let me run it.'],
      ['server_tool_call', '{"language":"PYTHON","code":"print(1 + 1)\\n"}'],
      ['tool_result', '2\n'],
      ['text', 'The answer is 2.'],
    ]);
    const stops = decoded.envelopes.filter((e) => e.unified?.family === 'stream.message_stop');
    expect(stops).toHaveLength(1);
  });

  it('a stream that ends on that STOP ends done, as its STOP says (the code got no result: info)', () => {
    const decoded = stream(text('Code:'), chunk([code, { text: '' }], STOP));
    expect(rulesOf(decoded)).toEqual(['tool.call-without-result']);
    expect(lastLegStatus(decoded)).toBe('done');
    expect(decoded.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ stop_reason: 'STOP' });
  });

  it('its sources are shown once, whether the stream goes on or ends on it', () => {
    const grounding = { groundingChunks: [{ web: { uri: 'https://example.com', title: 'Example' } }] };
    const handoff = chunk([code], { ...STOP, groundingMetadata: grounding });
    for (const decoded of [stream(handoff), stream(handoff, text('Done.'), chunk([{ text: '' }], STOP))])
      expect(decoded.envelopes.filter((e) => e.type === 'groundingMetadata')).toHaveLength(1);
  });

  it('one that ends after the result without its second finish is cut', () => {
    const decoded = stream(chunk([code], STOP), chunk([result]), text('The answer'));
    expect(rulesOf(decoded)).toEqual(['provider.missing-terminal', 'block.unterminated']);
    expect(lastLegStatus(decoded)).toBe('truncated');
  });

  it('a STOP after other content still finishes: what follows it is after the finish', () => {
    const decoded = stream(chunk([code, result, { text: 'Done.' }], STOP), text('More'));
    expect(rulesOf(decoded)).toEqual(['gemini.after-finish']);
  });

  it('recorded (pydantic-ai): each run is a code_execution call, its result linked to it, one message', () => {
    const { blocks } = decodeBytes(readExternalFixture('pydantic-ai/gemini-code-execution.crlf.sse'));
    const calls = blocks.filter((b) => b.kind === 'server_tool_call');
    const results = blocks.filter((b) => b.kind === 'tool_result');
    expect(calls.map((b) => [b.name, b.toolId])).toEqual([
      ['code_execution', 'code_0'],
      ['code_execution', 'code_1'],
    ]);
    expect(results.map((b) => blocks.find((c) => c.id === b.linkedBlock)?.toolId)).toEqual(['code_0', 'code_1']);
    expect(blocks.filter((b) => b.kind === 'message')).toHaveLength(1);
  });

  it('the code the model ran while it thought (its parts say thought: true) is marked so, on the reasoning channel; the later run is not', () => {
    const { envelopes } = decodeBytes(readExternalFixture('pydantic-ai/gemini-code-execution.crlf.sse'));
    const code = envelopes.filter((e) => e.extras['name'] === 'code_execution' && e.delta !== '');
    expect(code.map((e) => [e.type, e.extras['thought'] ?? false, e.unified?.channel ?? null])).toEqual([
      ['server_tool_call', true, 'reasoning'],
      ['tool_result', true, 'reasoning'],
      ['server_tool_call', false, null],
      ['tool_result', false, null],
    ]);
  });
});
