import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, providerEvent as ev } from '../../../src-main/testing/provider-streams';

/**
 * A citations_delta gives its citation whole: the citation envelope and the text block keep
 * every field of its location, whatever its type, not only those of document citations.
 */
const SEARCH_RESULT = {
  type: 'search_result_location',
  cited_text: 'Paris is the capital of France.',
  source: 'https://atlas.example/france',
  title: 'Atlas: France',
  search_result_index: 2,
  start_block_index: 0,
  end_block_index: 1,
};
const WEB = {
  type: 'web_search_result_location',
  cited_text: 'Sunny, 21 °C.',
  url: 'https://weather.example/paris',
  title: 'Paris weather',
  encrypted_index: 'EpMBCioIAxgC',
};

function decodeCitations(citations: readonly Record<string, unknown>[]) {
  return decodeProviderEvents([
    ev('message_start', { message: { id: 'msg_1', model: 'claude-test', content: [], usage: { input_tokens: 1 } } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...citations.map((citation) =>
      ev('content_block_delta', { index: 0, delta: { type: 'citations_delta', citation } }),
    ),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Paris: sunny.' } }),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }),
    ev('message_stop'),
  ]);
}

describe('citations_delta', () => {
  it('keeps every field of a search result’s and a web page’s citation, beside its type and cited text', () => {
    const { envelopes, blocks, diagnostics } = decodeCitations([SEARCH_RESULT, WEB]);
    expect(diagnostics).toEqual([]);
    const citations = envelopes.filter((e) => e.type === 'citation');
    const { type: _s, cited_text: searchText, ...searchFields } = SEARCH_RESULT;
    const { type: _w, cited_text: webText, ...webFields } = WEB;
    expect(citations.map((e) => [e.delta, e.extras])).toEqual([
      [searchText, { citation_type: 'search_result_location', ...searchFields }],
      [webText, { citation_type: 'web_search_result_location', ...webFields }],
    ]);
    expect(blocks[0]?.citations.map((c) => c.fields['search_result_index'] ?? c.fields['encrypted_index'])).toEqual([
      2,
      'EpMBCioIAxgC',
    ]);
  });

  it('must not: a "__proto__" field of a citation sets the extras’ prototype; null fields are left out', () => {
    const citation = JSON.parse(
      '{"type":"char_location","cited_text":"x","document_index":0,"__proto__":{"polluted":true},"file_id":null}',
    ) as Record<string, unknown>;
    const { envelopes } = decodeCitations([citation]);
    const extras = envelopes.find((e) => e.type === 'citation')?.extras ?? {};
    expect(Object.getPrototypeOf(extras)).toBe(Object.prototype);
    expect(Object.hasOwn(extras, '__proto__')).toBe(true);
    expect(Object.hasOwn(extras, 'file_id')).toBe(false);
    expect(extras['document_index']).toBe(0);
  });
});
