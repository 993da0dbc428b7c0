/** The fuzz grammar of the OpenAI Responses API (docs/dialects.md, "Adding a dialect"; docs/reliability.md, "Fuzzing"). */
import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

const RESPONSES_ITEMS = [
  'message',
  'function_call',
  'reasoning',
  'web_search_call',
  'image_generation_call',
  'future_call',
];
const RESPONSES_DELTAS = [
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.reasoning_summary_text.delta',
  'response.refusal.delta',
  'response.future.delta',
];

/** An OpenAI Responses API stream event; sequence numbers are left to the stream (testing/fuzz-streams.ts numbers them). */
function responsesEvent(random: Random): string {
  const common = { output_index: int(random, 3), item_id: `item_${int(random, 3)}`, content_index: int(random, 2) };
  const response = () => ({
    id: 'resp_1',
    object: 'response',
    status: pick(random, ['in_progress', 'completed', 'failed', 'incomplete']),
    output: [],
    error: random() < 0.2 ? { code: 'server_error', message: text(random) } : null,
  });
  switch (int(random, 7)) {
    case 0:
      return jsonText({
        type: pick(random, ['response.created', 'response.in_progress', 'response.queued']),
        response: response(),
      });
    case 1:
      return jsonText({
        type: pick(random, ['response.output_item.added', 'response.output_item.done']),
        ...common,
        item: {
          id: common.item_id,
          type: pick(random, RESPONSES_ITEMS),
          status: 'in_progress',
          name: 'f',
          arguments: text(random),
        },
      });
    case 2:
      return jsonText({
        type: pick(random, ['response.content_part.added', 'response.content_part.done']),
        ...common,
        part: { type: pick(random, ['output_text', 'refusal']), text: text(random), annotations: [] },
      });
    case 3:
    case 4:
      return jsonText({
        type: pick(random, RESPONSES_DELTAS),
        ...common,
        delta: random() < 0.95 ? text(random) : jsonValue(random),
      });
    case 5:
      return jsonText({
        type: pick(random, [
          'response.output_text.done',
          'response.function_call_arguments.done',
          'response.output_text.annotation.added',
        ]),
        ...common,
        text: text(random),
        arguments: text(random),
        annotation: { type: 'url_citation', url: 'https://example.com', title: text(random) },
      });
    default:
      return jsonText({
        type: pick(random, ['response.completed', 'response.failed', 'response.incomplete', 'error']),
        response: response(),
        code: 'rate_limit_exceeded',
        message: text(random),
      });
  }
}

export const fuzzGrammar: FuzzDialect = { event: responsesEvent, framing: { eventField: true, sequenceNumbers: true } };
