import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { GEMINI_RULES } from './rules';

/** A Gemini SSE stream (CRLF framed, as the API frames it) of these chunks. */
const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')));

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, responseId = 'r1') => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  modelVersion: 'gemini-test',
  responseId,
});
const text = (value: string) => chunk([{ text: value }]);
const finish = (reason: string, parts: unknown[] = [{ text: '' }]) => chunk(parts, { finishReason: reason });
const finishOf = (responseId: string) => chunk([{ text: '' }], { finishReason: 'STOP' }, responseId);
const endLabel = (result: ReturnType<typeof stream>) =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;
const severity = (result: ReturnType<typeof stream>, rule: string) =>
  result.diagnostics.find((d) => d.rule === rule)?.severity;

describe("the Gemini dialect's rules", () => {
  it('every rule is the dialect’s own', () => {
    for (const rule of Object.values(GEMINI_RULES)) expect(rule.dialects).toEqual(['gemini']);
  });

  it('gemini.finish-incomplete: MAX_TOKENS, SAFETY, RECITATION… (warning); the stream ends incomplete by its reason', () => {
    for (const reason of ['MAX_TOKENS', 'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'OTHER']) {
      const result = stream(text('Hi'), finish(reason));
      expect(rulesOf(result), reason).toEqual(['gemini.finish-incomplete']);
      expect(severity(result, 'gemini.finish-incomplete')).toBe('warning');
      expect(result.ends[0]?.stream.error).toBeNull();
      expect(result.ends[0]?.stream.incomplete?.message).toBe(`candidate 0 finished with finishReason ${reason}`);
    }
  });

  it('must not: finishReason STOP, with text or after a function call, says nothing and ends done', () => {
    for (const result of [
      stream(text('Hi'), finish('STOP')),
      stream(chunk([{ functionCall: { name: 'f', args: {} } }]), finish('STOP')),
    ]) {
      expect(rulesOf(result).filter((r) => r.startsWith('gemini.'))).toEqual([]);
      expect(result.ends[0]?.stream).toMatchObject({ terminal: { event: 'finishReason STOP' }, error: null });
    }
  });

  it('gemini.function-call-dropped: MALFORMED_FUNCTION_CALL (error), also UNEXPECTED_TOOL_CALL', () => {
    for (const reason of ['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']) {
      const result = stream(text('Let me call it.'), finish(reason, []));
      expect(rulesOf(result), reason).toEqual(['gemini.function-call-dropped']);
      expect(severity(result, 'gemini.function-call-dropped')).toBe('error');
      // The model's call is lost: a failure, not output cut short.
      expect(result.ends[0]?.stream.error?.message).toBe(`finishReason ${reason}`);
    }
  });

  it('gemini.prompt-blocked: promptFeedback.blockReason (warning)', () => {
    const result = stream({ promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'm', responseId: 'r1' });
    expect(rulesOf(result)).toEqual(['gemini.prompt-blocked']);
    expect(severity(result, 'gemini.prompt-blocked')).toBe('warning');
  });

  it('must not: promptFeedback with safety ratings only is no block', () => {
    const ratings = {
      promptFeedback: { safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'LOW' }] },
    };
    expect(rulesOf(stream({ ...text('Hi'), ...ratings }, finish('STOP')))).toEqual([]);
  });

  it('gemini.partial-args-incomplete: a call that said willContinue, then the finish (error); the call is kept', () => {
    const result = stream(
      chunk([{ functionCall: { name: 'f', willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.q', stringValue: 'Par' }], willContinue: true } }]),
      finish('STOP'),
    );
    expect(rulesOf(result)).toEqual(['gemini.partial-args-incomplete', 'tool.call-without-result']);
    expect(severity(result, 'gemini.partial-args-incomplete')).toBe('error');
    expect(result.blocks.find((b) => b.kind === 'tool_call')?.parsed).toEqual({ q: 'Par' });
  });

  it('gemini.partial-args-incomplete: also when the stream ends, or another part comes', () => {
    const open = chunk([{ functionCall: { name: 'f', willContinue: true } }]);
    expect(rulesOf(stream(open))).toContain('gemini.partial-args-incomplete');
    expect(rulesOf(stream(open, text('Hi'), finish('STOP')))).toContain('gemini.partial-args-incomplete');
  });

  it('must not: a streamed call whose last partialArgs part has no willContinue (a recorded Vertex stream)', () => {
    const result = decodeBytes(readExternalFixture('vercel-ai/gemini-streamed-args.json-array.json'));
    expect(rulesOf(result)).not.toContain('gemini.partial-args-incomplete');
  });

  it('gemini.after-finish: content for a candidate after the chunk that finished it (warning)', () => {
    const result = stream(text('Hi'), finish('STOP'), text(' again'));
    expect(rulesOf(result)).toEqual(['gemini.after-finish']);
    expect(severity(result, 'gemini.after-finish')).toBe('warning');
  });

  it('gemini.after-finish with a later finishReason that cuts or fails: the stream ends as that one says, not done', () => {
    const cut = stream(text('Hi'), finish('STOP'), finish('MAX_TOKENS'));
    expect(rulesOf(cut)).toEqual(['gemini.after-finish', 'gemini.finish-incomplete']);
    expect(cut.ends[0]?.stream.incomplete?.message).toBe('candidate 0 finished again with finishReason MAX_TOKENS');
    expect(endLabel(cut)).toBe('incomplete');
    expect(cut.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ status: 'incomplete' });
    const dropped = stream(text('Hi'), finish('STOP'), finish('MALFORMED_FUNCTION_CALL'));
    expect(dropped.ends[0]?.stream.error?.message).toBe(
      'candidate 0 finished again with finishReason MALFORMED_FUNCTION_CALL',
    );
    expect(endLabel(dropped)).toBe('ended by error');
  });

  it('must not: STOP on every chunk (Google SDK test data) ends done, the late content reported once', () => {
    const result = stream(finish('STOP', [{ text: 'Hi' }]), finish('STOP', [{ text: ' there' }]), finish('STOP'));
    expect(rulesOf(result)).toEqual(['gemini.after-finish']);
    expect(endLabel(result)).toBe('done');
  });

  it('must not: a usage-only chunk after the finish (its usage counts), or the next response of a capture', () => {
    const usageOnly = { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 9 }, responseId: 'r1' };
    const late = stream(text('Hi'), finish('STOP'), usageOnly);
    expect(rulesOf(late)).toEqual([]);
    expect(late.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ usage: { output_tokens: 9 } });
    const next = stream(text('Hi'), finish('STOP'), chunk([{ text: 'Bye' }], {}, 'r2'), finishOf('r2'));
    expect(rulesOf(next)).toEqual(['provider.next-message']);
  });

  it('provider.missing-terminal: no finishReason (error), the message summed up as cut', () => {
    const result = stream(text('Hi'));
    expect(rulesOf(result)).toEqual(['provider.missing-terminal', 'block.unterminated']);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ status: 'cut' });
  });

  it('provider.missing-terminal: usage alone, no candidate: the response is summed up as cut, with that usage', () => {
    const usageOnly = (responseId: string) => ({
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 9 },
      responseId,
    });
    const alone = stream(usageOnly('r1'));
    expect(rulesOf(alone)).toEqual(['provider.missing-terminal']);
    const summaries = (result: ReturnType<typeof stream>) =>
      result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed);
    expect(summaries(alone)).toMatchObject([{ id: 'r1', status: 'cut', usage: { input_tokens: 3, output_tokens: 9 } }]);
    // Cut by the next response: its summary first, then the next one's.
    const next = stream(usageOnly('r1'), chunk([{ text: 'Bye' }], {}, 'r2'), finishOf('r2'));
    expect(summaries(next)).toMatchObject([
      { id: 'r1', status: 'cut' },
      { id: 'r2', status: 'completed' },
    ]);
  });

  it('provider.missing-terminal: a response cut short by the next one', () => {
    expect(rulesOf(stream(text('Hi'), chunk([{ text: 'Bye' }], {}, 'r2'), finishOf('r2')))).toEqual([
      'provider.missing-terminal',
      'block.unterminated',
    ]);
  });

  it('provider.api-error: an error body mid-stream ends it by error', () => {
    const result = stream(text('Hi'), {
      error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(rulesOf(result)).toEqual(['provider.api-error', 'block.unterminated']);
    expect(result.ends[0]?.stream.error?.message).toBe('RESOURCE_EXHAUSTED: Resource exhausted');
  });

  it('provider.tool-args-invalid: args that are no object, or a partial argument that names no argument', () => {
    expect(rulesOf(stream(chunk([{ functionCall: { name: 'f', args: '{"a":' } }]), finish('STOP')))).toEqual([
      'provider.tool-args-invalid',
    ]);
    const badPath = chunk([{ functionCall: { name: 'f', partialArgs: [{ jsonPath: 'q', stringValue: 'x' }] } }]);
    expect(rulesOf(stream(badPath, finish('STOP')))).toContain('provider.tool-args-invalid');
  });

  it('provider.unknown-event: a part kind this version does not know, reported once', () => {
    const part = { futurePart: { x: 1 } };
    expect(rulesOf(stream(chunk([part]), chunk([part]), finish('STOP')))).toEqual(['provider.unknown-event']);
  });

  it('provider.invalid-event: a chunk that is no JSON object, kept undecoded', () => {
    const result = decodeBytes(encodeUtf8(`data: ${JSON.stringify(text('Hi'))}\r\n\r\ndata: {"candidates": [\r\n\r\n`));
    expect(rulesOf(result)).toContain('provider.invalid-event');
    expect(result.envelopes.some((e) => e.control === 'undecoded')).toBe(true);
  });
});
