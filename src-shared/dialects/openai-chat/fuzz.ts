import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/**
 * The fuzzer's grammar of Chat Completions events (docs/dialects.md): chunks of up to three
 * choices whose deltas mix role, content (a string or Mistral's parts), both reasoning fields,
 * refusals, tool call fragments with and without index, id and name, and every finish_reason;
 * usage chunks, Azure's placeholder and error bodies; values nested thousands deep where the
 * API has objects. Ids come from small sets, so that choices and calls meet again.
 */

const FINISH = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'error', 'eos', null, null, null];

/** Where the API has an object (logprobs, arguments sent as an object, usage): mostly one, sometimes any value. */
function objectOrValue(random: Random): unknown {
  return random() < 0.9 ? { content: [{ token: text(random), logprob: -0.5 }] } : jsonValue(random);
}

function toolFragment(random: Random): Record<string, unknown> {
  const fragment: Record<string, unknown> = {};
  if (random() < 0.9) fragment['index'] = int(random, 3);
  if (random() < 0.4) fragment['id'] = `call_${int(random, 3)}`;
  if (random() < 0.4) fragment['type'] = 'function';
  const fn: Record<string, unknown> = {};
  if (random() < 0.4) fn['name'] = pick(random, ['get_weather', 'search', '']);
  fn['arguments'] = random() < 0.9 ? pick(random, ['{"a":', '1}', '"x"', '']) + text(random) : objectOrValue(random);
  fragment['function'] = fn;
  return fragment;
}

function delta(random: Random): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (random() < 0.2) out['role'] = 'assistant';
  if (random() < 0.6) out['content'] = random() < 0.9 ? text(random) : [{ type: 'text', text: text(random) }];
  if (random() < 0.2) out[pick(random, ['reasoning_content', 'reasoning'])] = text(random);
  if (random() < 0.05) out['refusal'] = text(random);
  if (random() < 0.25) out['tool_calls'] = [toolFragment(random), ...(random() < 0.2 ? [toolFragment(random)] : [])];
  return out;
}

function choice(random: Random): Record<string, unknown> {
  return {
    index: random() < 0.95 ? int(random, 3) : 'zero',
    delta: random() < 0.97 ? delta(random) : jsonValue(random),
    logprobs: random() < 0.1 ? objectOrValue(random) : null,
    finish_reason: random() < 0.3 ? pick(random, FINISH) : null,
  };
}

function event(random: Random): string {
  const roll = random();
  const id = `chatcmpl-${int(random, 2)}`;
  if (roll < 0.8)
    return jsonText({
      id,
      object: random() < 0.9 ? 'chat.completion.chunk' : pick(random, ['', 'chat.completion.done']),
      model: 'gpt-fuzz',
      choices: Array.from({ length: random() < 0.8 ? 1 : int(random, 3) }, () => choice(random)),
      ...(random() < 0.05 ? { error: { message: text(random), code: 502 } } : {}),
    });
  if (roll < 0.9)
    return jsonText({
      id,
      object: 'chat.completion.chunk',
      choices: [],
      usage: random() < 0.95 ? { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } : objectOrValue(random),
    });
  if (roll < 0.95) return jsonText({ choices: [], id: '', object: '', prompt_filter_results: [{ prompt_index: 0 }] });
  return jsonText({ error: { message: text(random), type: 'server_error', code: null } });
}

export const fuzzGrammar: FuzzDialect = {
  event,
  opening: jsonText({
    id: 'chatcmpl-0',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
  }),
};
