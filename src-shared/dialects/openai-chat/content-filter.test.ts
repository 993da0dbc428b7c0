import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, lastLegStatus, rulesOf } from '../../../src-main/testing/provider-streams';
import type { DecodeResult } from '../../pipeline/types';
import { filteredCategories } from './vocabulary';

/**
 * Azure's content filter verdicts (docs/protocols/openai-chat.md): a verdict that filtered the
 * answer after the model's finish_reason (the asynchronous filter's annotation chunk, with no
 * finish_reason of its own) cuts the choice short as a finish_reason content_filter does.
 */
const data = (value: unknown): string => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const chunk = (choices: unknown[], fields: Record<string, unknown> = {}): string =>
  data({ id: 'chatcmpl-a', object: 'chat.completion.chunk', model: 'm', choices, ...fields });
/** An annotation of the asynchronous filter: no delta, in a chunk with an empty id, model and object. */
const annotation = (results: Record<string, unknown>, finish: string | null = null): string =>
  data({
    choices: [
      {
        content_filter_offsets: { check_offset: 10, start_offset: 10, end_offset: 40 },
        content_filter_results: results,
        finish_reason: finish,
        index: 0,
      },
    ],
    created: 0,
    id: '',
    model: '',
    object: '',
  });
const answer = [
  chunk([{ index: 0, delta: { role: 'assistant', content: 'blocked word' }, finish_reason: null }]),
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
];
const usage = chunk([], { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
const summaryOf = (result: DecodeResult) => result.blocks.find((b) => b.kind === 'message')?.parsed;

describe("Azure's content filter verdicts", () => {
  it('a verdict that filtered the answer after its stop cuts the choice short by the content filter', () => {
    const result = decodeProviderEvents([
      ...answer,
      annotation({ hate: { filtered: false, severity: 'safe' } }),
      annotation({ custom_blocklists: [{ filtered: true, id: 'list' }] }),
      usage,
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual(['provider.response-incomplete']);
    expect(lastLegStatus(result)).toBe('incomplete');
    expect(summaryOf(result)).toMatchObject({
      status: 'incomplete',
      stop_reason: 'stop',
      incomplete_details: { reason: 'content_filter', categories: ['custom_blocklists (list)'] },
    });
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('blocked word');
  });

  it.each([
    [
      'verdicts that filtered nothing (an annotate-only filter detects)',
      [annotation({ jailbreak: { detected: true, filtered: false } })],
    ],
    ['verdicts with an empty blocklist list', [annotation({ custom_blocklists: [] })]],
  ])('must not: %s leave the answer done', (_name, verdicts) => {
    const result = decodeProviderEvents([...answer, ...verdicts, usage, data('[DONE]')]);
    expect(rulesOf(result)).toEqual([]);
    expect(lastLegStatus(result)).toBe('done');
    expect(summaryOf(result)).toMatchObject({ status: 'completed', stop_reason: 'stop' });
  });

  it('must not: a choice the filter already finished (finish_reason content_filter) is reported once', () => {
    const result = decodeProviderEvents([
      answer[0] ?? '',
      annotation({ protected_material_text: { detected: true, filtered: true } }, 'content_filter'),
      annotation({ protected_material_text: { detected: true, filtered: true } }),
      data('[DONE]'),
    ]);
    expect(rulesOf(result)).toEqual(['provider.response-incomplete']);
    expect(summaryOf(result)).toMatchObject({ status: 'incomplete', stop_reason: 'content_filter' });
  });

  it('names the filtered categories: category objects and the blocklist verdicts of a list', () => {
    expect(
      filteredCategories({
        hate: { filtered: false, severity: 'safe' },
        violence: { filtered: true, severity: 'high' },
        custom_blocklists: [
          { filtered: false, id: 'a' },
          { filtered: true, id: 'b' },
        ],
        error: { code: '', message: '' },
      }),
    ).toEqual(['violence', 'custom_blocklists (b)']);
  });
});
