import { isJsonObject } from '../../../../src-shared/json/values';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted streams of Ollama's native API (docs/protocols/ollama.md), one JSON chunk per line
 * as `POST /api/chat` and `POST /api/generate` write them (application/x-ndjson): text,
 * thinking (`"think": true`), a whole tool call, the generate endpoint with its `context`, a
 * token limit (`done_reason` `length`), an error line mid-stream and a cut stream.
 */

const MODEL = 'llama3.2';
const THINKING_MODEL = 'qwen3:8b';
/** The first line's time; each later line comes 20 ms after the one before (Go's RFC 3339 with nanoseconds). */
const STARTED = Date.UTC(2025, 0, 1, 12, 0, 0);

type Fields = Record<string, unknown>;

/** One response's lines in order, each stamped with its model and time, as the server writes them. */
class OllamaScript {
  readonly events: ProviderEvent[] = [];
  private tokens = 0;

  constructor(
    private readonly model: string,
    /** `/api/generate` writes `response` on the line; `/api/chat` a `message`. */
    private readonly endpoint: 'chat' | 'generate' = 'chat',
  ) {}

  private line(fields: Fields): this {
    const at = new Date(STARTED + 20 * this.events.length).toISOString().replace('Z', '123456Z');
    this.events.push({ event: '', data: { model: this.model, created_at: at, ...fields } });
    return this;
  }

  /** Lines of the answer, one token each. */
  text(parts: readonly string[]): this {
    for (const part of parts) {
      this.tokens++;
      this.line(
        this.endpoint === 'chat'
          ? { message: { role: 'assistant', content: part }, done: false }
          : { response: part, done: false },
      );
    }
    return this;
  }

  /** Lines of reasoning (`thinking`), before the answer. */
  thinking(parts: readonly string[]): this {
    for (const part of parts) {
      this.tokens++;
      this.line({ message: { role: 'assistant', content: '', thinking: part }, done: false });
    }
    return this;
  }

  /** A line holding whole tool calls, as Ollama sends them: arguments an object, no id. */
  tools(calls: readonly { name: string; arguments: Fields }[]): this {
    this.tokens += 12 * calls.length;
    // `function.index` is left out when it is 0 (`omitempty` in Ollama's Go types).
    const toolCalls = calls.map((call, index) => ({ function: index === 0 ? call : { index, ...call } }));
    return this.line({ message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false });
  }

  /** The done line: its reason, and the counts and durations (nanoseconds) of the whole response. */
  done(reason: string, promptTokens: number, extra: Fields = {}): this {
    const evalDuration = 20_000_000 * this.tokens;
    // The field order of Ollama's Go types: a chat line's reason comes before `done`, a generate line's after it.
    const end =
      this.endpoint === 'chat'
        ? { message: { role: 'assistant', content: '' }, done_reason: reason, done: true }
        : { response: '', done: true, done_reason: reason };
    return this.line({
      ...end,
      ...extra,
      total_duration: 412_000_000 + evalDuration,
      load_duration: 31_000_000,
      prompt_eval_count: promptTokens,
      prompt_eval_duration: 58_000_000,
      eval_count: this.tokens,
      eval_duration: evalDuration,
    });
  }

  raw(data: Fields): this {
    this.events.push({ event: '', data });
    return this;
  }
}

const ANSWER = ['The', ' capital', ' of', ' France', ' is', ' Paris', '.'];

export const OLLAMA_CHAT_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text',
    title: 'Text',
    summary: 'The answer one token per line; the done line says stop, with the counts and durations.',
    events: new OllamaScript(MODEL).text(ANSWER).done('stop', 31).events,
  },
  {
    id: 'thinking',
    title: 'Thinking',
    summary: 'A thinking model ("think": true): message.thinking lines before the answer.',
    events: new OllamaScript(THINKING_MODEL)
      .thinking(['The user', ' asks for', ' the capital', ' of France', '. It is Paris', '.'])
      .text(['Paris', ' is the capital', ' of France', '.'])
      .done('stop', 18).events,
  },
  {
    id: 'tool-call',
    title: 'Tool call',
    summary: 'Two whole tool calls in one line (arguments objects, no id), then the done line.',
    events: new OllamaScript(MODEL)
      .tools([
        { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { name: 'get_local_time', arguments: { city: 'Paris' } },
      ])
      .done('stop', 212).events,
  },
  {
    id: 'tools-answered',
    title: 'Tool calls, answered',
    summary:
      'What a conversation ending with the tool messages answering the calls gets: the answer, from their results.',
    events: new OllamaScript(MODEL).text(['In Paris', ' it is', ' sunny', ' and 21 °C', '.']).done('stop', 44).events,
  },
  {
    id: 'length',
    title: 'Token limit',
    summary: 'The output stops at num_predict: done_reason length.',
    events: new OllamaScript(MODEL).text(['Paris', ' has', ' been', ' the', ' capital', ' since']).done('length', 31)
      .events,
  },
  {
    id: 'error-midstream',
    title: 'Error mid-stream',
    summary: 'A few lines of the answer, then an error line and the end of the body.',
    events: new OllamaScript(MODEL)
      .text(['The', ' capital'])
      .raw({ error: 'an error was encountered while running the model: unexpected EOF' }).events,
  },
  {
    id: 'cut',
    title: 'Cut stream',
    summary: 'The connection drops after a few lines: no done line.',
    events: new OllamaScript(MODEL).text(['The', ' capital', ' of']).events,
    cut: true,
  },
];

export const OLLAMA_GENERATE_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'generate',
    title: 'Generate',
    summary: '/api/generate: response lines, then the done line with the context to pass back.',
    events: new OllamaScript(MODEL, 'generate')
      .text(ANSWER)
      .done('stop', 31, { context: [128006, 9125, 128007, 271, 791, 6864, 315, 9822, 374, 12366, 13] }).events,
  },
];

/**
 * The scenario as a request answers it: an `/api/chat` conversation ending with `tool` messages
 * (the client's results for the calls the last response ended on) gets the answer from them,
 * whatever scenario the body still names.
 */
export function ollamaChatContinuation(scenario: ProviderScenario, body: unknown): ProviderScenario {
  const messages = isJsonObject(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const last: unknown = messages.at(-1);
  if (!isJsonObject(last) || last['role'] !== 'tool') return scenario;
  return OLLAMA_CHAT_SCENARIOS.find((s) => s.id === 'tools-answered') ?? scenario;
}
