import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/** A Gemini SSE stream (CRLF framed, as the API frames it) of these chunks. */
const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')));

const chunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  responseId: 'r1',
});
const sources = (...uris: string[]) => ({
  citationMetadata: { citationSources: uris.map((uri, i) => ({ startIndex: i, endIndex: i + 5, uri })) },
});
const citations = (result: DecodeResult) =>
  result.blocks.flatMap((b) => b.citations ?? []).map((c) => [c.citationType, c.fields['url']]);

describe('citationMetadata on any chunk (as the Gemini API sends them before a RECITATION)', () => {
  it('each chunk’s citationSources are kept, not only the finishing chunk’s', () => {
    const result = stream(
      chunk('one', sources('https://a.example')),
      chunk(' two', sources('https://b.example', 'https://c.example')),
      chunk('', { finishReason: 'RECITATION', ...sources('https://d.example') }),
    );
    expect(rulesOf(result)).toEqual(['gemini.finish-incomplete']);
    expect(citations(result)).toEqual([
      ['citation_source', 'https://a.example'],
      ['citation_source', 'https://b.example'],
      ['citation_source', 'https://c.example'],
      ['citation_source', 'https://d.example'],
    ]);
  });

  it('must not: the finishing chunk’s sources are shown once', () => {
    const result = stream(chunk('one'), chunk('', { finishReason: 'STOP', ...sources('https://a.example') }));
    expect(citations(result)).toEqual([['citation_source', 'https://a.example']]);
  });
});
