import type { ProviderEvent } from './types';

/**
 * The builder of the scripted OpenAI Responses streams (openai-scenarios.ts): a response's
 * lifecycle events, message and tool items with their parts and deltas, and its terminal
 * event, numbered in order as the API numbers them.
 */

export const MODEL = 'gpt-5';

/** Builds one scenario's events, numbering them in order as the API does. */
export class ResponseScript {
  private readonly events: ProviderEvent[] = [];
  /** The output items as their done events gave them, by output index: the terminal event's `output`. */
  private readonly doneItems: [number, unknown][] = [];

  constructor(readonly id: string) {}

  add(type: string, fields: Record<string, unknown> = {}): this {
    this.events.push({ event: type, data: { type, ...fields, sequence_number: this.events.length } });
    if (type === 'response.output_item.done') this.doneItems.push([Number(fields['output_index']), fields['item']]);
    return this;
  }

  /** The response object; `store: true` as the API echoes its default (a request's `store: false` is echoed by openai-answers.ts). */
  response(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      id: this.id,
      object: 'response',
      created_at: 1735689600,
      status,
      model: MODEL,
      output: [],
      store: true,
      usage: null,
      error: null,
      incomplete_details: null,
      ...extra,
    };
  }

  /** The items done so far, in output order, as a terminal event's response lists them. */
  private output(): unknown[] {
    return [...this.doneItems].sort(([a], [b]) => a - b).map(([, item]) => item);
  }

  start(): this {
    return this.add('response.created', { response: this.response('in_progress') }).add('response.in_progress', {
      response: this.response('in_progress'),
    });
  }

  /** A message item with one output_text part streaming these deltas (and annotations after them). */
  message(
    output: number,
    itemId: string,
    deltas: string[],
    annotations: Record<string, unknown>[] = [],
    part: 'output_text' | 'refusal' = 'output_text',
  ): this {
    const text = deltas.join('');
    const ids = { item_id: itemId, output_index: output, content_index: 0 };
    this.add('response.output_item.added', {
      output_index: output,
      item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    this.add('response.content_part.added', {
      ...ids,
      part: part === 'refusal' ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [] },
    });
    const prefix = part === 'refusal' ? 'response.refusal' : 'response.output_text';
    for (const delta of deltas)
      this.add(`${prefix}.delta`, { ...ids, delta, ...(part === 'output_text' ? { logprobs: [] } : {}) });
    annotations.forEach((annotation, i) =>
      this.add('response.output_text.annotation.added', { ...ids, annotation_index: i, annotation }),
    );
    this.add(`${prefix}.done`, { ...ids, [part === 'refusal' ? 'refusal' : 'text']: text });
    const donePart =
      part === 'refusal' ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations };
    this.add('response.content_part.done', { ...ids, part: donePart });
    this.add('response.output_item.done', {
      output_index: output,
      item: { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [donePart] },
    });
    return this;
  }

  /** A tool item: added, its streamed input (args, code…), status phases, done. */
  tool(
    output: number,
    item: Record<string, unknown>,
    done: Record<string, unknown>,
    steps: [string, Record<string, unknown>][],
  ): this {
    this.add('response.output_item.added', { output_index: output, item });
    for (const [type, fields] of steps) this.add(type, { item_id: item['id'], output_index: output, ...fields });
    this.add('response.output_item.done', { output_index: output, item: { ...item, ...done } });
    return this;
  }

  complete(usage: Record<string, unknown>): ProviderEvent[] {
    this.add('response.completed', { response: this.response('completed', { output: this.output(), usage }) });
    return this.events;
  }

  finish(type: string, extra: Record<string, unknown>): ProviderEvent[] {
    this.add(type, { response: this.response(type.slice('response.'.length), { output: this.output(), ...extra }) });
    return this.events;
  }

  list(): ProviderEvent[] {
    return this.events;
  }
}

export const usage = (input: number, output: number, reasoning = 0): Record<string, unknown> => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
});
