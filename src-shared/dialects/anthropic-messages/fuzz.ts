/** The fuzz grammar of the Anthropic Messages API (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

const BLOCK_TYPES = ['text', 'thinking', 'tool_use', 'server_tool_use', 'web_search_tool_result'];
const DELTA_TYPES = [
  'text_delta',
  'thinking_delta',
  'input_json_delta',
  'signature_delta',
  'citations_delta',
  'bogus_delta',
];

/** An Anthropic Messages stream event (the raw format forwards them, the Messages API sends them). */
export function anthropicEvent(random: Random): string {
  const index = int(random, 3);
  switch (int(random, 6)) {
    case 0:
      return jsonText({
        type: 'message_start',
        message: { id: `msg_${int(random, 9)}`, content: [], model: 'claude', role: 'assistant' },
      });
    case 1:
      return jsonText({
        type: 'content_block_start',
        index,
        content_block: {
          type: pick(random, BLOCK_TYPES),
          text: '',
          id: `toolu_${int(random, 4)}`,
          name: 'f',
          input: {},
        },
      });
    case 2:
      return jsonText({
        type: 'content_block_delta',
        index,
        delta: {
          type: pick(random, DELTA_TYPES),
          text: text(random),
          thinking: text(random),
          partial_json: text(random),
        },
      });
    case 3:
      return jsonText({ type: 'content_block_stop', index });
    case 4:
      return jsonText({
        type: pick(random, ['message_delta', 'message_stop', 'ping', 'content_block_flush']),
        delta: { stop_reason: pick(random, ['end_turn', 'tool_use', 'max_tokens', null]) },
        usage: jsonValue(random),
      });
    default:
      return jsonText({
        type: 'error',
        error: { type: pick(random, ['overloaded_error', 'api_error']), message: text(random) },
      });
  }
}

export const fuzzGrammar: FuzzDialect = {
  event: anthropicEvent,
  framing: { eventField: true, sequenceNumbers: false },
};
