import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';

/**
 * File search as the API streams it (pydantic-ai/gemini-file-search.crlf.sse): the model's code
 * queries the store, its chunk finishes with STOP and a first groundingMetadata (one passage),
 * the answer follows, and the finishing chunk's grounding gives the passage again with supports
 * that cite index 1: the candidate's grounding chunks counted across its chunks.
 */
describe('a file search grounding', () => {
  const result = decodeBytes(readExternalFixture('pydantic-ai/gemini-file-search.crlf.sse'));
  const STORE = 'fileSearchStores/testfilesearchstream-df5lsen5e6i5';
  const PASSAGE = 'Paris is the capital of France. The Eiffel Tower is a famous landmark in Paris.';

  it('each grounding is the file search tool’s result (not a web search), the code’s STOP no finish', () => {
    const results = result.envelopes.filter((e) => e.unified?.family === 'stream.tool_call_result');
    expect(results.map((e) => [e.type, e.unified?.tool?.builtin])).toEqual([
      ['groundingMetadata', 'file_search'],
      ['groundingMetadata', 'file_search'],
    ]);
    expect(rulesOf(result)).toEqual(['tool.call-without-result', 'tool.call-without-result']);
  });

  it('each support cites the passage it names, with its store, though its index counts the earlier chunk’s', () => {
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(
      text?.citations.map((c) => [
        c.citedText,
        c.fields['grounding_chunk'],
        c.fields['file_search_store'],
        c.fields['source_text'],
      ]),
    ).toEqual([
      ['The capital of France is Paris.', 1, STORE, PASSAGE],
      ['A famous landmark in Paris is the Eiffel Tower.', 1, STORE, PASSAGE],
    ]);
  });
});
