import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures, readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, readProviderFixture, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { frameChunks } from '../../sse/collect';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';

const fixtures = listProviderFixtures().filter((f) => f.startsWith('gemini/'));

/** The findings each demo scenario must raise (and no others). */
const EXPECTED_RULES: Record<string, string[]> = {
  'gemini/cut.sse': ['provider.missing-terminal', 'block.unterminated'],
  'gemini/error-midstream.sse': ['provider.api-error', 'block.unterminated'],
  // Function calls are the client's: the response waits for their results.
  'gemini/prompt-blocked.sse': ['gemini.prompt-blocked'],
  'gemini/safety.sse': ['gemini.finish-incomplete'],
};

function status(result: DecodeResult): string {
  const stream = result.ends.at(-1)?.stream ?? null;
  return endStatusOf({ stream, ...blockEndFacts(result.blocks, result.ends.length - 1) }).kind;
}

const summary = (result: DecodeResult): unknown => result.blocks.find((b) => b.kind === 'message')?.parsed;

/** Every dialect that claims the frame: detection must never be ambiguous. */
const claimants = (data: string): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event: '', data }))).map((m) => m.id);

describe('the demo scenarios', () => {
  test.each(fixtures)('%s: detected, decoded with exactly its findings, the same at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readProviderFixture(name));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
    const result = decodeBytes(readProviderFixture(name));
    expect(result.formats).toEqual(['gemini']);
    expect(rulesOf(result)).toEqual(EXPECTED_RULES[name] ?? []);
  });

  test.each(fixtures)('%s: every chunk is claimed by gemini alone', (name) => {
    for (const frame of frameChunks([readProviderFixture(name)]).frames)
      expect(claimants(frame.data), frame.data.slice(0, 80)).toEqual(['gemini']);
  });

  it('a chunk of usage alone is gemini by its token counts, without a modelVersion; usage without them is not', () => {
    const usage = (usageMetadata: Record<string, unknown>) => JSON.stringify({ usageMetadata });
    expect(claimants(usage({ promptTokenCount: 12, candidatesTokenCount: 71, totalTokenCount: 237 }))).toEqual([
      'gemini',
    ]);
    expect(claimants(usage({ trafficType: 'ON_DEMAND' }))).toEqual([]);
  });

  test.each([
    ['text', 'done'],
    ['thinking', 'done'],
    ['code-execution', 'done'],
    ['grounding', 'done'],
    ['safety', 'incomplete'],
    ['prompt-blocked', 'error'],
    ['error-midstream', 'error'],
    ['cut', 'truncated'],
  ])('%s ends %s', (scenario, expected) => {
    expect(status(decodeBytes(readProviderFixture(`gemini/${scenario}.sse`)))).toBe(expected);
  });

  it('text: one text block, and the message with its model, stop reason, the last usage and its pace', () => {
    const result = decodeBytes(readProviderFixture('gemini/text.sse'));
    expect(result.blocks.map((b) => [b.kind, b.status])).toEqual([
      ['text', 'complete'],
      ['message', 'complete'],
    ]);
    expect(result.blocks[0]?.content).toBe(
      'The capital of France is Paris. It lies on the Seine, in the north of the country.',
    );
    expect(summary(result)).toMatchObject({
      id: 'resp-demo-text',
      model: 'gemini-2.5-flash',
      status: 'completed',
      stop_reason: 'STOP',
      usage: { input_tokens: 9, output_tokens: 20, promptTokenCount: 9, candidatesTokenCount: 20 },
    });
    // The first chunk holds the first content: the stream cannot show a time to first token.
    expect(summary(result)).not.toHaveProperty('time_to_first_token_ms');
  });

  it('thinking: thought parts are a thinking block on the reasoning channel, then the text', () => {
    const result = decodeBytes(readProviderFixture('gemini/thinking.sse'));
    expect(result.blocks.map((b) => b.kind)).toEqual(['thinking', 'text', 'message']);
    expect(result.blocks[0]?.content).toContain('**Recalling the geography**');
    const channels = new Set(result.envelopes.filter((e) => e.type === 'thinking').map((e) => e.unified?.channel));
    expect([...channels]).toEqual(['reasoning']);
    expect(result.envelopes.some((e) => e.type === 'thoughtSignature' && e.unified?.kind === 'signature_delta')).toBe(
      true,
    );
  });

  it('parallel-calls: two tool calls with parsed arguments and ids of their own', () => {
    const calls = decodeBytes(readProviderFixture('gemini/parallel-calls.sse')).blocks.filter(
      (b) => b.kind === 'tool_call',
    );
    expect(calls.map((c) => [c.name, c.parsed])).toEqual([
      ['get_weather', { city: 'Paris', unit: 'celsius' }],
      ['get_local_time', { city: 'Paris' }],
    ]);
    expect(new Set(calls.map((c) => c.toolId)).size).toBe(2);
  });

  it('code-execution: the code, its result linked to it with the plot attached, then the answer', () => {
    const { blocks } = decodeBytes(readProviderFixture('gemini/code-execution.sse'));
    expect(blocks.map((b) => b.kind)).toEqual(['text', 'server_tool_call', 'tool_result', 'text', 'message']);
    const [, code, result] = blocks;
    expect(code?.parsed).toMatchObject({ language: 'PYTHON' });
    expect(result?.content).toBe('129\n');
    expect(result?.linkedBlock).toBe(code?.id);
    expect(result?.images.map((i) => i.mediaType)).toEqual(['image/png']);
  });

  it('grounding: each grounding support cites its text with the source it names', () => {
    const result = decodeBytes(readProviderFixture('gemini/grounding.sse'));
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(text?.citations.map((c) => [c.citationType, c.citedText, c.fields['url']])).toEqual([
      ['grounding', 'The capital of France is Paris.', 'https://atlas.example/france'],
      ['grounding', 'About 2.1 million people live in the city.', 'https://stats.example/paris'],
      ['grounding', 'About 2.1 million people live in the city.', 'https://atlas.example/france'],
    ]);
    const search = result.envelopes.find((e) => e.type === 'groundingMetadata')?.unified;
    expect(search).toMatchObject({ family: 'stream.tool_call_result', tool: { builtin: 'web_search' } });
    expect(search?.search_results).toHaveLength(2);
    // The API counts its ranges in bytes: they are named so, never as character indexes.
    const fields = text?.citations[0]?.fields ?? {};
    expect([fields['start_byte_index'], fields['end_byte_index'], 'start_char_index' in fields]).toEqual([
      0,
      31,
      false,
    ]);
  });

  it('streamed-args: partialArgs build one call, strings joined over their parts', () => {
    const call = decodeBytes(readProviderFixture('gemini/streamed-args.sse')).blocks.find(
      (b) => b.kind === 'tool_call',
    );
    expect([call?.name, call?.parsed]).toEqual([
      'book_table',
      { restaurant: 'Chez Paul', party: { size: 4 }, times: ['19:30'] },
    ]);
  });
});

describe('captures recorded by the Vercel AI SDK test suite (resources/fixtures/external)', () => {
  const decode = (name: string) => decodeBytes(readExternalFixture(`vercel-ai/${name}`));

  test.each([
    'gemini-text.crlf.sse',
    'gemini-tool-call.crlf.sse',
    'gemini-image.crlf.sse',
    'gemini-3.7-flash.crlf.sse',
    'gemini-prompt-blocked.crlf.sse',
    'gemini-streamed-args.json-array.json',
  ])('%s: gemini, the same at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readExternalFixture(`vercel-ai/${name}`));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
    expect(decode(name).formats).toEqual(['gemini']);
  });

  it('a CRLF text stream ends done with its text whole and the usage of its last chunk', () => {
    const result = decode('gemini-text.crlf.sse');
    expect(status(result)).toBe('done');
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks[0]?.content).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(summary(result)).toMatchObject({
      model: 'gemini-3-pro-preview',
      stop_reason: 'STOP',
      usage: { input_tokens: 9, output_tokens: 23 + 185 },
    });
  });

  it('a real API stream with its spacing (gemini-3.7-flash) ends done', () => {
    const result = decode('gemini-3.7-flash.crlf.sse');
    expect([status(result), rulesOf(result), result.blocks[0]?.content]).toEqual(['done', [], 'fixture ok']);
  });

  it('an image-only answer is a text block showing the image', () => {
    const result = decode('gemini-image.crlf.sse');
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks[0]).toMatchObject({ kind: 'text', content: '', images: [{ mediaType: 'image/jpeg' }] });
  });

  it('a blocked prompt ends by error, with the one finding that says why', () => {
    const result = decode('gemini-prompt-blocked.crlf.sse');
    expect([status(result), rulesOf(result)]).toEqual(['error', ['gemini.prompt-blocked']]);
    expect(summary(result)).toMatchObject({ status: 'blocked', stop_reason: 'PROHIBITED_CONTENT' });
  });

  it('a JSON array body (no alt=sse) of streamed arguments: one frame per element, the call complete without a last empty part', () => {
    const result = decode('gemini-streamed-args.json-array.json');
    expect(result.frames[0]).toHaveLength(16);
    expect([status(result), rulesOf(result)]).toEqual(['paused', []]);
    const call = result.blocks.find((b) => b.kind === 'tool_call');
    expect([call?.name, call?.parsed]).toEqual([
      'writeItems',
      {
        operations: [
          { action: 'add', description: 'Fresh red apple', itemid: 'apple_001', price: 0.5 },
          { action: 'add', description: 'Ripe yellow banana', itemid: 'banana_001', price: 0.3 },
        ],
      },
    ]);
  });
});
