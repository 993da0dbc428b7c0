import { describe, expect, it } from 'vitest';
import { NO_EXTRAS } from '../../envelope/types';
import { decodeProviderEvents, providerEvent as ev } from '../../../src-main/testing/provider-streams';

/**
 * The tokens' logprobs a Responses request asks for (`include: ["message.output_text.logprobs"]`,
 * `top_logprobs`) stream with each `response.output_text.delta`: kept on the text envelope's
 * extras, as a Chat Completions delta's are.
 */
const ids = { item_id: 'msg_1', output_index: 0, content_index: 0 };
const stream = (logprobs: (token: string) => unknown[]) =>
  decodeProviderEvents([
    ev('response.created', { sequence_number: 0, response: { id: 'resp_1', model: 'gpt-4.1', status: 'in_progress' } }),
    ev('response.output_item.added', {
      sequence_number: 1,
      output_index: 0,
      item: { id: 'msg_1', type: 'message', status: 'in_progress', content: [], role: 'assistant' },
    }),
    ev('response.content_part.added', {
      sequence_number: 2,
      ...ids,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    }),
    ...['Hi', ' there'].map((delta, i) =>
      ev('response.output_text.delta', { sequence_number: 3 + i, ...ids, delta, logprobs: logprobs(delta) }),
    ),
    ev('response.output_text.done', { sequence_number: 5, ...ids, text: 'Hi there', logprobs: [] }),
    ev('response.content_part.done', { sequence_number: 6, ...ids, part: { type: 'output_text', text: 'Hi there' } }),
    ev('response.output_item.done', {
      sequence_number: 7,
      output_index: 0,
      item: { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant' },
    }),
    ev('response.completed', { sequence_number: 8, response: { id: 'resp_1', model: 'gpt-4.1', status: 'completed' } }),
  ]);
const deltas = (result: ReturnType<typeof decodeProviderEvents>) =>
  result.envelopes.filter((e) => e.type === 'text' && e.delta !== '');

describe('Responses text deltas with logprobs', () => {
  it('each delta keeps its logprobs on its extras; the text is whole', () => {
    const token = (t: string) => [{ token: t, logprob: -0.25, bytes: [...Buffer.from(t)], top_logprobs: [] }];
    const result = stream(token);
    expect(deltas(result).map((e) => [e.delta, e.extras])).toEqual([
      ['Hi', { logprobs: token('Hi') }],
      [' there', { logprobs: token(' there') }],
    ]);
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('Hi there');
    expect(result.diagnostics).toEqual([]);
  });

  it('must not: the empty list every delta carries otherwise adds no extras', () => {
    expect(deltas(stream(() => [])).map((e) => e.extras)).toEqual([NO_EXTRAS, NO_EXTRAS]);
  });
});
