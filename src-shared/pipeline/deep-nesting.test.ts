import { describe, expect, it } from 'vitest';
import { diffSessions } from '../diff/diff';
import { stringifyJson } from '../json/tree';
import { chunkings } from '../testing/chunking';
import { DEEP_AGENT, deeplyNestedCapture, nestedArrayText, nestedObjectText } from '../testing/deep-json';
import { encodeUtf8 } from '../text/utf8';
import { decodeBytes, decodeLegs } from './session-decoder';
import type { DecodeResult } from './types';

/** What the tests compare across chunkings, as text (a deep comparison would itself recurse 5,000 levels). */
function shape(result: DecodeResult): string | undefined {
  return stringifyJson({
    envelopes: result.envelopes.map((e) => [e.type, e.final, e.delta, e.extras]),
    blocks: result.blocks,
    diagnostics: result.diagnostics.map((d) => [d.rule, d.message]),
  });
}

describe('deeply nested JSON does not crash the decoder', () => {
  it('decodes a 5,000-level extra field whole, byte by byte and at random splits, keeping every envelope', () => {
    const bytes = encodeUtf8(deeplyNestedCapture(5000));
    expect(bytes.byteLength).toBeGreaterThan(10_000);
    const results = chunkings(bytes).map(({ chunks }) => decodeLegs([chunks.map((c) => ({ bytes: c }))]));
    const first = results[0] as DecodeResult;
    expect(first.envelopes.map((e) => e.type)).toEqual(['text', 'text', '[DONE]']);
    expect(first.blocks).toMatchObject([{ agent: DEEP_AGENT, kind: 'text', content: 'deep end', status: 'complete' }]);
    // Over the chunking budget: measuring it re-serialises the envelope, all 5,000 levels.
    expect(first.diagnostics.map((d) => d.rule)).toContain('envelope.over-budget');
    expect(stringifyJson(first.envelopes[0]?.extras)).toBe(`{"nested":${nestedArrayText(5000)}}`);
    for (const result of results) expect(shape(result)).toBe(shape(first));
  });

  it('decodes Anthropic raw events whose tool input and server tool result nest 5,000 levels', () => {
    const events = [
      { type: 'message_start', message: { id: 'm', model: 'claude', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'deep', input: {} } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: nestedObjectText(5000) },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'web_search_tool_result', tool_use_id: 't2', content: 'CONTENT' },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'error', error: 'ERROR' },
      { type: 'message_stop' },
    ].map(
      (event) =>
        `data: ${JSON.stringify(event).replace('"CONTENT"', nestedArrayText(5000)).replace('"ERROR"', nestedObjectText(5000))}\n\n`,
    );
    const result = decodeBytes(
      encodeUtf8(`data: <meta_init data='{"format": "raw"}'></meta_init>\n\n${events.join('')}data: [DONE]\n\n`),
    );
    expect(result.formats).toEqual(['raw']);
    const deltas = new Map(result.envelopes.map((e) => [e.type, e.delta]));
    expect(deltas.get('tool_call')).toBe(nestedObjectText(5000));
    expect(deltas.get('server_tool_result')).toBe(nestedArrayText(5000));
    expect(deltas.get('error')).toBe(nestedObjectText(5000));
  });

  it('diffs two sessions that hold the deep values', () => {
    const left = decodeBytes(encodeUtf8(deeplyNestedCapture(5000)));
    const right = decodeBytes(encodeUtf8(deeplyNestedCapture(4999)));
    const input = (r: DecodeResult) => ({
      format: r.formats[0] ?? null,
      envelopes: r.envelopes,
      blocks: r.blocks,
      agents: r.agents,
    });
    expect(() => diffSessions(input(left), input(right))).not.toThrow();
  });
});
