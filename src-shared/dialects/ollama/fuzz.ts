import { jsonText } from '../../json/tree';
import { int, jsonValue, pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/**
 * The fuzzer's grammar of Ollama's native API (src-shared/testing/fuzz.ts): chunks of
 * `/api/chat` and `/api/generate`, and, for half the streams, a whole NDJSON body of them, one
 * per line, mostly ending with a done line. Mostly well formed; sometimes a field missing or of
 * the wrong kind, another model, arguments that are no object, an error line, a line that is
 * no JSON, lines after the done line.
 */

const MODELS = ['llama3.2', 'llama3.2', 'llama3.2', 'qwen3:8b'];
const REASONS = ['stop', 'stop', 'length', 'load', 'unload', 'future_reason'];

/** One chunk: text, thinking, tool calls or the done line, of the chat or the generate endpoint. */
function chunk(random: Random, done = random() < 0.15): string {
  const line: Record<string, unknown> = {
    model: random() < 0.97 ? pick(random, MODELS) : 7,
    created_at: '2025-01-01T12:00:00.123456789Z',
  };
  const roll = random();
  if (random() < 0.3) {
    line['response'] = roll < 0.03 ? jsonValue(random) : text(random);
    if (random() < 0.2) line['thinking'] = text(random);
  } else {
    const message: Record<string, unknown> = { role: 'assistant', content: roll < 0.5 ? text(random) : '' };
    if (roll >= 0.5 && roll < 0.75) message['thinking'] = text(random);
    if (roll >= 0.75 && roll < 0.9) message['tool_calls'] = toolCalls(random);
    if (roll >= 0.97) message['content'] = jsonValue(random);
    line['message'] = message;
  }
  line['done'] = done;
  if (done) {
    if (random() < 0.9) line['done_reason'] = pick(random, REASONS);
    line['prompt_eval_count'] = int(random, 500);
    line['eval_count'] = random() < 0.95 ? int(random, 500) : 'many';
    line['eval_duration'] = int(random, 1e9);
    if ('response' in line && random() < 0.5) line['context'] = [1, 2, int(random, 128_000)];
  }
  return jsonText(line);
}

function toolCalls(random: Random): unknown {
  if (random() < 0.04) return text(random);
  return Array.from({ length: 1 + int(random, 3) }, (_, index) => {
    const roll = random();
    const args = roll < 0.05 ? '{"city":"Paris"}' : roll < 0.08 ? jsonValue(random) : { city: text(random) };
    return {
      ...(random() < 0.3 ? { id: `call_${int(random, 9)}` } : {}),
      function: {
        ...(index > 0 ? { index } : {}),
        name: pick(random, ['get_weather', 'get_time', '']),
        arguments: args,
      },
    };
  });
}

/** A whole NDJSON body: chunks one per line, mostly a done line last; sometimes an error line, a broken line, lines after the end. */
function body(random: Random): string {
  const eol = pick(random, ['\n', '\n', '\n', '\r\n']);
  const lines: string[] = [];
  for (let n = int(random, 30); n > 0; n--) {
    const roll = random();
    lines.push(
      roll < 0.02
        ? '{"model":"llama3.2","message":{"content":"cu'
        : roll < 0.04
          ? jsonText({ error: text(random) })
          : chunk(random, false),
    );
  }
  if (random() < 0.85) lines.push(chunk(random, true));
  if (random() < 0.05) lines.push(chunk(random));
  return lines.join(eol) + (random() < 0.9 ? eol : '');
}

export const fuzzGrammar: FuzzDialect = { event: (random) => chunk(random), stream: body };
