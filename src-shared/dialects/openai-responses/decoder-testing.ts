/** Hand-made OpenAI Responses events for the decoder's tests: one response with one message. */

/** Events numbered in order, as the API sends them. */
export function numbered(events: [string, Record<string, unknown>][]): string[] {
  return events.map(
    ([type, fields], i) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: i })}\n\n`,
  );
}

export const ids = { item_id: 'msg_1', output_index: 0, content_index: 0 };
export const created: [string, Record<string, unknown>] = [
  'response.created',
  { response: { id: 'resp_1', status: 'in_progress', model: 'gpt-test' } },
];
export const completed: [string, Record<string, unknown>] = [
  'response.completed',
  { response: { id: 'resp_1', status: 'completed', model: 'gpt-test', usage: { input_tokens: 5, output_tokens: 2 } } },
];
export const itemAdded: [string, Record<string, unknown>] = [
  'response.output_item.added',
  { output_index: 0, item: { id: 'msg_1', type: 'message', content: [] } },
];
export const partAdded: [string, Record<string, unknown>] = [
  'response.content_part.added',
  { ...ids, part: { type: 'output_text', text: '' } },
];
export const delta = (text: string): [string, Record<string, unknown>] => [
  'response.output_text.delta',
  { ...ids, delta: text },
];
export const textDone = (text: string): [string, Record<string, unknown>] => [
  'response.output_text.done',
  { ...ids, text },
];
export const partDone: [string, Record<string, unknown>] = [
  'response.content_part.done',
  { ...ids, part: { type: 'output_text' } },
];
export const itemDone: [string, Record<string, unknown>] = [
  'response.output_item.done',
  { output_index: 0, item: { id: 'msg_1', type: 'message', status: 'completed' } },
];
export const message = (text: string): [string, Record<string, unknown>][] => [
  itemAdded,
  partAdded,
  delta(text),
  textDone(text),
  partDone,
  itemDone,
];
export const complete = numbered([created, ...message('Hello'), completed]);
