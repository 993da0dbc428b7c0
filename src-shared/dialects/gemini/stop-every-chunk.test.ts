import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded, lastLegStatus, rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/**
 * Streams without `responseId` that send `finishReason: STOP` on every chunk, as Google's own
 * SDK test data has them (resources/fixtures/external/generative-ai-js): the SDKs join every
 * chunk into one answer, and so does the inspector.
 */

/** A Gemini SSE stream (LF framed, as that test data is) of these chunks. */
const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')));

const chunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  ...extra,
});
const messages = (result: DecodeResult) => result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed);
const content = (result: DecodeResult) =>
  result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.status, b.content]);

describe('finishReason STOP on every chunk, no responseId', () => {
  it('is one response: one message, one text block, done, content after the first finish said once (warning)', () => {
    const result = stream(chunk('The'), chunk(' answer'), chunk(' is 2.'));
    expect(messages(result)).toMatchObject([{ status: 'completed', stop_reason: 'STOP' }]);
    expect(content(result)).toEqual([['text', 'complete', 'The answer is 2.']]);
    expect(lastLegStatus(result)).toBe('done');
    expect(rulesOf(result)).toEqual(['gemini.after-finish']);
    expect(result.diagnostics[0]?.severity).toBe('warning');
  });

  it('must not: another responseId after the finish still begins the next response', () => {
    const result = stream(chunk('Hi'), chunk('Bye', { responseId: 'r2' }));
    expect(rulesOf(result)).toEqual(['provider.next-message']);
    expect(messages(result)).toMatchObject([{ status: 'completed' }, { id: 'r2', status: 'completed' }]);
    expect(content(result)).toEqual([
      ['text', 'complete', 'Hi'],
      ['text', 'complete', 'Bye'],
    ]);
  });

  it('must not: one finishing chunk closes its text block, with no finding', () => {
    const { candidates, usageMetadata } = chunk('');
    const open = { candidates: [{ content: { parts: [{ text: 'Hi' }] }, index: 0 }], usageMetadata };
    const result = stream(open, { candidates, usageMetadata });
    expect(rulesOf(result)).toEqual([]);
    expect(content(result)).toEqual([['text', 'complete', 'Hi']]);
  });

  it('recorded (generative-ai-js): six chunks each with STOP, then the grounding alone: one answer', () => {
    const bytes = readExternalFixture('generative-ai-js/search-grounding-stop-every-chunk.sse');
    const { result, facts } = decodeRecorded(bytes);
    expect(facts).toEqual({
      formats: ['gemini'],
      rules: ['gemini.after-finish'],
      status: 'done',
      chunkingsThatDiffer: [],
    });
    const [answer] = result.blocks;
    expect(answer?.content).toMatch(/^The current stock price .* Google Finance or TradingView\.\n$/s);
    expect(messages(result)).toMatchObject([
      { status: 'completed', stop_reason: 'STOP', usage: { input_tokens: 8, output_tokens: 106 } },
    ]);
  });

  it('recorded (generative-ai-js): the grounding after the last STOP cites the answer: one citation per support and chunk', () => {
    const result = decodeBytes(readExternalFixture('generative-ai-js/search-grounding-stop-every-chunk.sse'));
    const [answer] = result.blocks;
    const citations = answer?.citations ?? [];
    expect(citations.map((c) => [c.fields['title'], c.fields['grounding_chunk']])).toEqual([
      ['test_title_1', 0],
      ['test_title_2', 1],
      ['test_title_1', 0],
      ['test_title_1', 0],
      ['test_title_2', 1],
      ['test_title_2', 1],
    ]);
    // Byte offsets of the whole answer: the one block holds it.
    const utf8 = Buffer.from(answer?.content ?? '');
    for (const { citedText, fields } of citations)
      expect(utf8.subarray(Number(fields['start_byte_index'] ?? 0), Number(fields['end_byte_index'])).toString()).toBe(
        citedText,
      );
    const search = result.envelopes.find((e) => e.type === 'groundingMetadata')?.unified;
    expect(search).toMatchObject({ tool: { builtin: 'web_search' }, action: { queries: [expect.any(String)] } });
  });
});
