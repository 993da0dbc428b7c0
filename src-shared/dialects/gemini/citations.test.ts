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

describe('citationMetadata: the sources of every chunk, in the Gemini API’s shape and Vertex AI’s', () => {
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

  it('Vertex AI’s citationMetadata.citations: url, title, license, publication date and range, each kept', () => {
    const citations = [
      { endIndex: 128, uri: 'https://www.example.com/some-citation-1' },
      { startIndex: 130, endIndex: 265, title: 'some-citation-2', publicationDate: { year: 2014, month: 3, day: 30 } },
      { startIndex: 272, endIndex: 431, uri: 'https://www.example.com/some-citation-3', license: 'mit' },
    ];
    // As Vertex AI streamed them in Firebase's SDK test data: STOP on every chunk, no responseId.
    const { responseId: _, ...vertex } = chunk('Quantum', { finishReason: 'STOP', citationMetadata: { citations } });
    const result = stream(vertex);
    expect(result.blocks.flatMap((b) => b.citations ?? []).map((c) => [c.citationType, c.fields])).toEqual([
      ['citation_source', { url: 'https://www.example.com/some-citation-1', end_index: 128 }],
      [
        'citation_source',
        {
          title: 'some-citation-2',
          publication_date: { year: 2014, month: 3, day: 30 },
          start_index: 130,
          end_index: 265,
        },
      ],
      [
        'citation_source',
        { url: 'https://www.example.com/some-citation-3', license: 'mit', start_index: 272, end_index: 431 },
      ],
    ]);
  });

  it('must not: the Gemini API’s citationSources keep their byte range names', () => {
    const result = stream(chunk('one', { finishReason: 'STOP', ...sources('https://a.example') }));
    expect(result.blocks.flatMap((b) => b.citations ?? []).map((c) => c.fields)).toEqual([
      { url: 'https://a.example', start_byte_index: 0, end_byte_index: 5 },
    ]);
  });
});
