import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { chunkingsThatDiffer, rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/** A Gemini SSE stream (CRLF framed, as the API frames it) of these chunks. */
const bytesOf = (...chunks: unknown[]) => encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(''));

const chunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  modelVersion: 'gemini-test',
  responseId: 'r1',
});
const fetched = (status: string) => ({
  urlContextMetadata: { urlMetadata: [{ retrievedUrl: 'https://example.com', urlRetrievalStatus: status }] },
});
const grounding = {
  groundingChunks: [{ web: { uri: 'https://example.com', title: 'Example' } }],
  groundingSupports: [{ segment: { startIndex: 0, endIndex: 5, text: 'Hello' }, groundingChunkIndices: [0] }],
};
const toolResults = (bytes: Uint8Array) =>
  decodeBytes(bytes)
    .envelopes.filter((e) => e.unified?.family === 'stream.tool_call_result')
    .map((e) => [e.type, e.unified?.tool?.builtin, e.unified?.phase, e.unified?.action]);

describe('the URL context tool (urlContextMetadata), as pydantic-ai/gemini-url-context.crlf.sse streams it', () => {
  it('its fetched pages are its result, and the grounding that cites them is its own, not a web search', () => {
    const bytes = bytesOf(
      chunk('Hello', fetched('URL_RETRIEVAL_STATUS_SUCCESS')),
      chunk(' there'),
      chunk('', { finishReason: 'STOP', groundingMetadata: grounding }),
    );
    expect(toolResults(bytes)).toEqual([
      [
        'urlContextMetadata',
        'url_context',
        'completed',
        { urls: [{ url: 'https://example.com', status: 'URL_RETRIEVAL_STATUS_SUCCESS' }] },
      ],
      ['groundingMetadata', 'url_context', 'completed', undefined],
    ]);
    expect(rulesOf(decodeBytes(bytes))).toEqual([]);
    expect(chunkingsThatDiffer(bytes)).toEqual([]);
  });

  it('a page it could not retrieve fails it; a grounding that names queries stays a web search', () => {
    const bytes = bytesOf(
      chunk('Hello', fetched('URL_RETRIEVAL_STATUS_ERROR')),
      chunk('', { finishReason: 'STOP', groundingMetadata: { ...grounding, webSearchQueries: ['hello'] } }),
    );
    expect(toolResults(bytes).map(([type, builtin, phase]) => [type, builtin, phase])).toEqual([
      ['urlContextMetadata', 'url_context', 'failed'],
      ['groundingMetadata', 'web_search', 'completed'],
    ]);
  });

  it('a chunk that repeats the last one but for its text is read whole when it carries urlContextMetadata', () => {
    const bytes = bytesOf(
      chunk('Hello', fetched('URL_RETRIEVAL_STATUS_SUCCESS')),
      chunk(' there', fetched('URL_RETRIEVAL_STATUS_SUCCESS')),
      chunk('', { finishReason: 'STOP' }),
    );
    expect(toolResults(bytes).map(([type]) => type)).toEqual(['urlContextMetadata', 'urlContextMetadata']);
    expect(decodeBytes(bytes).blocks.find((b) => b.kind === 'text')?.content).toBe('Hello there');
  });

  it('recorded (pydantic-ai): the page fetched, then the grounding citing it, each support as the API numbers it', () => {
    const bytes = readExternalFixture('pydantic-ai/gemini-url-context.crlf.sse');
    expect(toolResults(bytes)).toEqual([
      [
        'urlContextMetadata',
        'url_context',
        'completed',
        { urls: [{ url: 'https://ai.pydantic.dev', status: 'URL_RETRIEVAL_STATUS_SUCCESS' }] },
      ],
      ['groundingMetadata', 'url_context', 'completed', undefined],
    ]);
    const text = decodeBytes(bytes).blocks.find((b) => b.kind === 'text');
    // The API's offsets here are one past the text each support quotes: kept as it sent them.
    expect(text?.citations.map((c) => [c.fields['start_byte_index'], c.fields['end_byte_index']])).toEqual([
      [1, 102],
      [102, 169],
    ]);
  });
});
