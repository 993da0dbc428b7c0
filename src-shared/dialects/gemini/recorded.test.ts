import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeRecorded, lastLegStatus, pauseOf, rulesOf } from '../../../src-main/testing/provider-streams';
import type { EndStatusKind } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/**
 * `streamGenerateContent` streams recorded from the Gemini API and Vertex AI by the vercel/ai
 * and pydantic-ai test suites (resources/fixtures/external/vercel-ai and pydantic-ai, credited
 * in resources/fixtures/external/README.md), framed as the API frames `alt=sse`: each one is
 * this dialect, the same at every chunking and as the JSON array sent without `alt=sse`, ends
 * as its stream says, and makes no finding unless the capture breaks the protocol. A thinking
 * block's expected content may be THOUGHTS: the capture's own thought parts, joined.
 */
const THOUGHTS = Symbol('the thought parts of the capture');

interface Recorded {
  name: string;
  status: EndStatusKind;
  rules?: string[];
  blocks: [kind: string, content: string | typeof THOUGHTS][];
  /** The client calls: name, id (the part's, or one made up), parsed arguments. */
  calls?: [string, string, unknown][];
  /** The message's summary. */
  message: Record<string, unknown>;
}

const LASAGNA = {
  recipe: {
    ingredients: [
      ['16 oz', 'Lasagna noodles'],
      ['1 lb', 'Ground beef'],
      ['15 oz', 'Ricotta cheese'],
      ['3 cups', 'Mozzarella cheese'],
      ['1/2 cup', 'Parmesan cheese'],
      ['24 oz', 'Tomato sauce'],
      ['1', 'Egg'],
      ['2 cloves', 'Garlic'],
      ['1 tsp', 'Salt'],
      ['1/2 tsp', 'Pepper'],
    ].map(([amount, name]) => ({ amount, name })),
    name: 'Lasagna',
    steps: [
      'Preheat oven to 375°F (190°C).',
      // Streamed in two pieces, "…set aside" and ".": joined.
      'Cook lasagna noodles according to package directions, drain and set aside.',
      'Brown ground beef with minced garlic in a skillet. Drain fat and stir in tomato sauce. Simmer for 10 minutes.',
      'In a bowl, mix ricotta cheese, egg, salt, pepper, and Parmesan cheese.',
      'In a 9x13 baking dish, spread a thin layer of meat sauce.',
      'Layer noodles, ricotta mixture, mozzarella, and meat sauce. Repeat.',
      'Top with remaining mozzarella cheese.',
      'Cover with foil and bake for 25 minutes.',
      'Remove foil and bake for another 25 minutes until golden.',
      'Let stand for 15 minutes before serving.',
    ],
  },
};

const RECORDED: readonly Recorded[] = [
  {
    // gemini-3-pro "reasoning": its thoughts are counted (thoughtsTokenCount), not sent.
    name: 'gemini-reasoning',
    status: 'done',
    blocks: [['text', 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.']],
    message: { model: 'gemini-3-pro-preview', status: 'completed', usage: { input_tokens: 9, output_tokens: 285 } },
  },
  {
    name: 'gemini-reasoning-gemini3',
    status: 'done',
    blocks: [['text', 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y']],
    message: { model: 'gemini-3-pro-preview', stop_reason: 'STOP', usage: { input_tokens: 9, output_tokens: 325 } },
  },
  {
    name: 'gemini-3.7-flash-09-14',
    status: 'done',
    blocks: [['text', 'OK']],
    message: { id: 'D36oasj5EKXK_uMPsvKGwQk', model: 'gemini-3.7-flash', usage: { output_tokens: 51 } },
  },
  {
    // vercel/ai issue 18073: the thought signature comes on an empty text part with the finish; no empty block.
    name: 'gemini-empty-text-signature',
    status: 'done',
    blocks: [['text', '4']],
    message: { model: 'gemini-3-flash-preview', usage: { input_tokens: 15, output_tokens: 53 } },
  },
  {
    // Google Search ran (toolUsePromptTokenCount), but the suite's copy keeps no groundingMetadata: no citation.
    name: 'gemini-search-live',
    status: 'done',
    blocks: [['text', 'The current date is Wednesday, August 26, 2026.']],
    message: {
      model: 'gemini-2.5-flash',
      usage: { input_tokens: 17, output_tokens: 37 + 333, toolUsePromptTokenCount: 308 },
    },
  },
  {
    // pydantic-ai's recording (resources/fixtures/external/pydantic-ai): Google Search grounding,
    // an empty groundingMetadata on every chunk until the finishing one's sources.
    name: 'pydantic-ai/gemini-search-grounding',
    status: 'done',
    blocks: [['text', expect.stringMatching(/^### Cloudy Skies .* similar mild and dry weather pattern\.$/s)]],
    message: {
      id: 'wld8aaaZGLGwqtsPqv7A4AI',
      model: 'gemini-2.5-pro',
      stop_reason: 'STOP',
      usage: { input_tokens: 17, output_tokens: 205 + 319, toolUsePromptTokenCount: 104 },
    },
  },
  {
    // Code execution twice (the first a thought); the second's code comes with STOP, then its result and the answer.
    name: 'pydantic-ai/gemini-code-execution',
    status: 'done',
    blocks: [
      ['server_tool_call', '{"language":"PYTHON","code":"    print(65465 - 6544 * 65464 - 6 + 1.02255)\\n    "}'],
      ['tool_result', '-428330955.97745\n'],
      ['text', expect.stringMatching(/^Following the order .*\n4\. {2}Addition: .*using Python:\n$/s)],
      ['server_tool_call', '{"language":"PYTHON","code":"print(65465 - 6544 * 65464 - 6 + 1.02255)\\n"}'],
      ['tool_result', '-428330955.97745\n'],
      ['text', 'The result of the expression `65465-6544 * 65464-6+1.02255` is **-428,330,955.97745**.'],
    ],
    message: { model: 'gemini-2.5-pro', stop_reason: 'STOP', usage: { input_tokens: 46, output_tokens: 235 + 563 } },
  },
  {
    // File search run by code: its code with STOP and a first grounding, no result, then the answer.
    name: 'pydantic-ai/gemini-file-search',
    status: 'done',
    rules: ['tool.call-without-result', 'tool.call-without-result'],
    blocks: [
      ['server_tool_call', expect.stringContaining('file_search.query(query=')],
      ['server_tool_call', expect.stringContaining('file_search.query(query=')],
      ['text', 'The capital of France is Paris. A famous landmark in Paris is the Eiffel Tower.'],
    ],
    message: { model: 'gemini-2.5-pro', stop_reason: 'STOP', usage: { input_tokens: 15, output_tokens: 53 + 211 } },
  },
  {
    // The URL context tool: urlContextMetadata on the first chunk, the grounding on the finishing one.
    name: 'pydantic-ai/gemini-url-context',
    status: 'done',
    blocks: [
      [
        'text',
        'The first sentence on the page is "Join us at the inaugural PyAI Conf in San Francisco on March 10th!"Join us at the inaugural PyAI Conf in San Francisco on March 10th!',
      ],
    ],
    message: { model: 'gemini-2.5-flash', stop_reason: 'STOP', usage: { input_tokens: 32, output_tokens: 60 + 45 } },
  },
  {
    // Thought parts (thought: true) are thinking, the answer after them text.
    name: 'gemini-gemma-4-thoughts',
    status: 'done',
    blocks: [
      ['thinking', THOUGHTS],
      ['text', 'hello'],
    ],
    message: { model: 'gemma-4-26b-a4b-it', usage: { input_tokens: 6, output_tokens: 77 } },
  },
  {
    name: 'gemini-tool-call-gemini3',
    status: 'paused',
    blocks: [['tool_call', '{"location":"San Francisco"}']],
    calls: [['weather', 'call_0', { location: 'San Francisco' }]],
    message: { model: 'gemini-3-pro-preview', stop_reason: 'STOP', usage: { output_tokens: 819 } },
  },
  {
    name: 'gemini-text-then-call',
    status: 'paused',
    blocks: [
      ['text', 'Let me check.'],
      ['tool_call', '{"city":"San Francisco"}'],
    ],
    calls: [['get_weather', 'g1bmv6il', { city: 'San Francisco' }]],
    message: { model: 'gemini-3.1-pro-preview', usage: { input_tokens: 83, output_tokens: 199 } },
  },
  {
    // Nested arguments with the call's own id; the suite redacted the signature and the responseId.
    name: 'gemini-recursive-tool-call',
    status: 'paused',
    blocks: [['tool_call', '{"condition":{"or":[{"term":"x"},{"term":"y"}]}}']],
    calls: [['search', 'call_345658', { condition: { or: [{ term: 'x' }, { term: 'y' }] } }]],
    message: { id: '<redacted>', model: 'gemini-3.7-flash', usage: { input_tokens: 694, output_tokens: 231 } },
  },
  {
    // Vertex AI: two calls whose arguments stream as partialArgs, the second closed by the
    // empty functionCall part of the finishing chunk.
    name: 'gemini-streamed-args-two-calls',
    status: 'paused',
    blocks: [
      ['tool_call', '{"location":"Boston"}'],
      ['tool_call', '{"location":"San Francisco"}'],
    ],
    calls: [
      ['getWeather', 'call_0', { location: 'Boston' }],
      ['getWeather', 'call_1', { location: 'San Francisco' }],
    ],
    message: { model: 'gemini-3.1-pro-preview', usage: { input_tokens: 26, output_tokens: 155 } },
  },
  {
    // Vertex AI: a call without args (read_theme), then three streamed ones; the first chunks'
    // usageMetadata has no counts yet, the last one's counts.
    name: 'gemini-no-args-tool-call',
    status: 'paused',
    blocks: [
      ['thinking', THOUGHTS],
      ['tool_call', '{}'],
      ['tool_call', '{"id":"A"}'],
      ['tool_call', '{"id":"B"}'],
      ['tool_call', '{"id":"C"}'],
    ],
    calls: [
      ['read_theme', 'call_0', {}],
      ['read_screen', 'call_1', { id: 'A' }],
      ['read_screen', 'call_2', { id: 'B' }],
      ['read_screen', 'call_3', { id: 'C' }],
    ],
    message: { model: 'gemini-3-flash-preview', usage: { input_tokens: 249, output_tokens: 241 } },
  },
  {
    // Vertex AI: one call streamed over 76 chunks, its arguments objects nested in arrays.
    name: 'gemini-streamed-args-nested',
    status: 'paused',
    blocks: [['tool_call', JSON.stringify(LASAGNA)]],
    calls: [['cookRecipe', 'call_0', LASAGNA]],
    message: { model: 'gemini-3.1-pro-preview', usage: { input_tokens: 31, output_tokens: 684 + 1026 } },
  },
  {
    // The suite's last usage chunk of a live stream, alone: no candidate and no finishReason, so
    // the stream is cut; its summary keeps the usage.
    name: 'gemini-usage-only',
    status: 'truncated',
    rules: ['provider.missing-terminal'],
    blocks: [],
    message: { status: 'cut', usage: { input_tokens: 12, output_tokens: 160, cachedContentTokenCount: 4 } },
  },
];

/** A capture by its name in vercel-ai/, or by its folder and name for another suite's. */
const capture = (name: string) => readExternalFixture(`${name.includes('/') ? name : `vercel-ai/${name}`}.crlf.sse`);

/** The capture's chunks, each its `data:` line's JSON text. */
function chunksOf(bytes: Uint8Array): string[] {
  return new TextDecoder()
    .decode(bytes)
    .split('\r\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name?: string };
}

/** A candidate's groundingMetadata, as far as these tests read it. */
interface Grounding {
  groundingChunks?: { web: { uri: string; title: string } }[];
  groundingSupports?: {
    segment: { text: string; startIndex: number; endIndex: number };
    groundingChunkIndices: number[];
  }[];
  webSearchQueries?: string[];
}

/** Every part of the capture's first candidate, in order (read with JSON.parse). */
function partsOf(bytes: Uint8Array): Part[] {
  return chunksOf(bytes).flatMap((data) => {
    const chunk = JSON.parse(data) as { candidates?: { content?: { parts?: Part[] } }[] };
    return chunk.candidates?.[0]?.content?.parts ?? [];
  });
}

const thoughtsOf = (bytes: Uint8Array): string =>
  partsOf(bytes)
    .filter((part) => part.thought === true)
    .map((part) => part.text)
    .join('');

/** The same chunks as the body `streamGenerateContent` sends without `alt=sse`: one JSON array. */
const asJsonArray = (bytes: Uint8Array): Uint8Array => encodeUtf8(`[${chunksOf(bytes).join('\r\n,\r\n')}\r\n]`);

const NOT_CONTENT = new Set(['message', 'awaiting_frontend_tools']);
const contentOf = (result: DecodeResult) =>
  result.blocks.filter((b) => !NOT_CONTENT.has(b.kind)).map((b) => [b.kind, b.content]);
const modelContentOf = (result: DecodeResult) =>
  (pauseOf(result)?.parsed as { content: { role: string; parts: Part[] } } | undefined)?.content;

describe('recorded Gemini streams', () => {
  test.each(RECORDED)(
    '$name: gemini, $status, its findings, blocks, calls and summary, the same at every chunking',
    (recorded) => {
      const bytes = capture(recorded.name);
      const { result, facts } = decodeRecorded(bytes);
      expect(facts).toEqual({
        formats: ['gemini'],
        rules: recorded.rules ?? [],
        status: recorded.status,
        chunkingsThatDiffer: [],
      });
      expect(contentOf(result)).toEqual(
        recorded.blocks.map(([kind, content]) => [kind, content === THOUGHTS ? thoughtsOf(bytes) : content]),
      );
      const calls = result.blocks.filter((b) => b.kind === 'tool_call');
      expect(calls.map((b) => [b.name, b.toolId, b.parsed])).toEqual(recorded.calls ?? []);
      const messages = result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed);
      expect(messages).toMatchObject([recorded.message]);
    },
  );

  test.each(RECORDED)('$name: as one JSON array (no alt=sse), the same findings, end and blocks', ({ name }) => {
    const sse = decodeBytes(capture(name));
    const array = decodeBytes(asJsonArray(capture(name)));
    expect(array.formats).toEqual(['gemini']);
    expect([rulesOf(array), lastLegStatus(array), array.blocks.map((b) => [b.kind, b.content])]).toEqual([
      rulesOf(sse),
      lastLegStatus(sse),
      sse.blocks.map((b) => [b.kind, b.content]),
    ]);
  });

  test.each(RECORDED.filter((r) => r.status === 'paused'))(
    '$name: the pause names its calls and sends back each call with its thoughtSignature',
    ({ name, calls = [] }) => {
      const bytes = capture(name);
      const result = decodeBytes(bytes);
      expect(pauseOf(result)?.pendingTools?.map((t) => [t.name, t.toolUseId, t.input])).toEqual(calls);
      const signed = (parts: Part[]) =>
        parts.filter((p) => p.functionCall && p.thoughtSignature).map((p) => p.thoughtSignature);
      expect(signed(modelContentOf(result)?.parts ?? [])).toEqual(signed(partsOf(bytes)));
    },
  );

  it('Google Search grounding: each support cites its segment with each chunk it names; the search is a web search result', () => {
    const bytes = capture('pydantic-ai/gemini-search-grounding');
    const grounding = chunksOf(bytes).map(
      (data) =>
        (JSON.parse(data) as { candidates: { groundingMetadata: Grounding }[] }).candidates[0]?.groundingMetadata,
    );
    expect(grounding.slice(0, -1)).toEqual(Array.from({ length: 7 }, () => ({})));
    const { groundingChunks: sources = [], groundingSupports = [], webSearchQueries } = grounding.at(-1) ?? {};
    const cited = groundingSupports.flatMap(({ segment, groundingChunkIndices }) =>
      groundingChunkIndices.map((i) => [segment.text, sources[i]?.web, segment.startIndex, segment.endIndex, i]),
    );
    expect(cited).toHaveLength(11);
    const result = decodeBytes(bytes);
    const [answer] = result.blocks;
    expect(answer?.content).toBe(
      partsOf(bytes)
        .map((part) => part.text)
        .join(''),
    );
    const citations = answer?.citations ?? [];
    expect(citations.every((c) => c.citationType === 'grounding')).toBe(true);
    expect(
      citations.map(({ citedText, fields: f }) => [
        citedText,
        { uri: f['url'], title: f['title'] },
        f['start_byte_index'],
        f['end_byte_index'],
        f['grounding_chunk'],
      ]),
    ).toEqual(cited);
    // The API's offsets are bytes of the UTF-8 text: each range is the text the support cites.
    const utf8 = Buffer.from(answer?.content ?? '');
    for (const { citedText, fields } of citations)
      expect(utf8.subarray(Number(fields['start_byte_index']), Number(fields['end_byte_index'])).toString()).toBe(
        citedText,
      );
    const searches = result.envelopes.filter((e) => e.unified?.family === 'stream.tool_call_result');
    expect(searches.map((e) => e.unified)).toMatchObject([
      {
        tool: { kind: 'builtin', builtin: 'web_search' },
        phase: 'completed',
        action: { queries: webSearchQueries },
        search_results: sources.map(({ web }) => ({ url: web.uri, title: web.title })),
      },
    ]);
  });

  it('the model content sent back keeps its parts in order: thoughts, text and each call whole', () => {
    const kinds = (name: string) =>
      modelContentOf(decodeBytes(capture(name)))?.parts.map((p) =>
        p.functionCall ? `call ${p.functionCall.name}` : p.thought ? 'thought' : 'text',
      );
    expect(kinds('gemini-text-then-call')).toEqual(['text', 'call get_weather']);
    expect(kinds('gemini-no-args-tool-call')).toEqual([
      'thought',
      'call read_theme',
      'call read_screen',
      'call read_screen',
      'call read_screen',
    ]);
    const [streamed] = modelContentOf(decodeBytes(capture('gemini-streamed-args-nested')))?.parts ?? [];
    expect(streamed?.functionCall).toEqual({ name: 'cookRecipe', args: LASAGNA });
  });
});
