import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, rulesOf } from '../../../src-main/testing/provider-streams';
import type { DecodeResult } from '../../pipeline/types';

/**
 * What the streams pydantic-ai recorded (resources/fixtures/external/pydantic-ai) showed the
 * decoder: annotations of a web search, Groq's usage in x_groq alone, and the tools Groq's
 * compound models run themselves (executed_tools).
 */

const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const chunk = (choices: unknown[], fields: Record<string, unknown> = {}): string =>
  data({ id: 'chatcmpl-x', object: 'chat.completion.chunk', model: 'm', choices, ...fields });
const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;
const contentOf = (result: DecodeResult) =>
  result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content]);

describe('what the pydantic-ai recordings showed the decoder', () => {
  it("a delta's url_citation annotations are citations of the choice's text, before or after it", () => {
    const citation = (url: string, title: string) => ({
      type: 'url_citation',
      url_citation: { url, title, start_index: 0, end_index: 5 },
    });
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: '', annotations: [citation('https://a.example', 'A')] } }]),
      chunk([{ index: 0, delta: { content: 'Paris' } }]),
      chunk([{ index: 0, delta: { annotations: [citation('https://b.example', '')] }, finish_reason: 'stop' }]),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual([]);
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(text?.content).toBe('Paris');
    expect(text?.citations.map((c) => [c.citationType, c.citedText, c.fields])).toEqual([
      ['url_citation', 'A', { url: 'https://a.example', title: 'A', start_index: 0, end_index: 5 }],
      ['url_citation', 'https://b.example', { url: 'https://b.example', title: '', start_index: 0, end_index: 5 }],
    ]);
  });

  it("Groq's usage in x_groq alone (its compound models) is the completion's usage", () => {
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { content: 'Hi' } }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], {
        x_groq: { id: 'req_1', usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9, queue_time: 0.1 } },
      }),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual([]);
    expect(summaryOf(result)).toMatchObject({ usage: { input_tokens: 7, output_tokens: 2, queue_time: 0.1 } });
  });

  it("Groq's executed_tools: a server call at its first entry, its result when the output comes", () => {
    const tool = (extra: Record<string, unknown>) => ({
      index: 0,
      type: 'search',
      arguments: '{"query": "weather"}',
      ...extra,
    });
    const result = decodeProviderEvents([
      chunk([{ index: 0, delta: { reasoning: 'Let me search.' } }]),
      chunk([{ index: 0, delta: { executed_tools: [tool({ search_results: { results: [] } })] } }]),
      chunk([{ index: 0, delta: { executed_tools: [tool({ output: 'Sunny, 62°F' })] } }]),
      chunk([{ index: 0, delta: { reasoning: 'Found it.' } }]),
      chunk([{ index: 0, delta: { content: 'Sunny.' }, finish_reason: 'stop' }]),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual([]);
    expect(contentOf(result)).toEqual([
      ['thinking', 'Let me search.'],
      ['server_tool_call', '{"type":"search","arguments":{"query":"weather"}}'],
      ['server_tool_result', 'Sunny, 62°F'],
      ['thinking', 'Found it.'],
      ['text', 'Sunny.'],
    ]);
    const [call, answer] = result.blocks.filter((b) => b.kind.startsWith('server_tool'));
    expect([call?.name, answer?.name, answer?.toolId]).toEqual(['search', 'search', call?.toolId]);
  });
});
