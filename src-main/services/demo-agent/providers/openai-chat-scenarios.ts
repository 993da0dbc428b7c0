import { isJsonObject } from '../../../../src-shared/json/values';
import { providerSse, type ProviderEvent, type ProviderScenario } from './types';

/**
 * Scripted OpenAI Chat Completions streams (docs/protocols/openai-chat.md), as OpenAI and the
 * OpenAI-compatible servers send them: data-only `chat.completion.chunk` events, the usage
 * chunk with `choices: []`, `data: [DONE]`. Besides text, reasoning and parallel tool calls:
 * two choices (n = 2, with logprobs), a token limit, Azure's content filter, OpenRouter's
 * keep-alive comments and in-chunk error, errors as `data: {"error": …}` and as `event: error`,
 * and a cut stream.
 */

const MODEL = 'gpt-4o-2024-08-06';
const CREATED = 1735689600;
/** The `event` of a keep-alive comment line (`: OPENROUTER PROCESSING`), which no SSE event carries. */
const COMMENT = ':';

/** How the demo writes a chat stream: every event as the API does, and comment lines as comments. */
export function chatSse(event: ProviderEvent): string {
  return event.event === COMMENT && typeof event.data === 'string' ? `: ${event.data}\n\n` : providerSse(event);
}

/** Builds one completion's chunks in order, as the API streams them. */
class ChatScript {
  readonly events: ProviderEvent[] = [];

  constructor(
    private readonly id: string,
    private readonly model = MODEL,
    private readonly extra: Record<string, unknown> = { system_fingerprint: 'fp_demo', usage: null },
  ) {}

  chunk(choices: Record<string, unknown>[], fields: Record<string, unknown> = {}): this {
    const data = { id: this.id, object: 'chat.completion.chunk', created: CREATED, model: this.model };
    this.events.push({ event: '', data: { ...data, ...this.extra, choices, ...fields } });
    return this;
  }

  delta(delta: Record<string, unknown>, finish: string | null = null, index = 0, choice = {}): this {
    return this.chunk([{ index, delta, logprobs: null, finish_reason: finish, ...choice }]);
  }

  role(index = 0, fields: Record<string, unknown> = { content: '', refusal: null }): this {
    return this.delta({ role: 'assistant', ...fields }, null, index);
  }

  text(parts: readonly string[], index = 0): this {
    for (const content of parts) this.delta({ content }, null, index);
    return this;
  }

  reasoning(parts: readonly string[], field = 'reasoning_content'): this {
    for (const text of parts) this.delta({ content: null, [field]: text });
    return this;
  }

  /** One tool call: its first fragment names it, the later ones carry its arguments. */
  tool(index: number, id: string, name: string, args: readonly string[]): this {
    this.delta({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] });
    for (const piece of args) this.delta({ tool_calls: [{ index, function: { arguments: piece } }] });
    return this;
  }

  finish(reason: string, index = 0): this {
    return this.delta({}, reason, index);
  }

  usage(prompt: number, completion: number, details: Record<string, unknown> = {}): this {
    return this.chunk([], {
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...details },
    });
  }

  raw(event: string, data: Record<string, unknown> | string): this {
    this.events.push({ event, data });
    return this;
  }

  done(): ProviderEvent[] {
    return this.raw('', '[DONE]').events;
  }
}

const SERVER_ERROR = {
  message: 'The server had an error while processing your request. Sorry about that!',
  type: 'server_error',
  param: null,
  code: null,
};

/** A token's logprobs as `logprobs: true, top_logprobs: 1` asks for them. */
const logprobs = (token: string, logprob: number): Record<string, unknown> => ({
  content: [{ token, logprob, bytes: [...new TextEncoder().encode(token)], top_logprobs: [{ token, logprob }] }],
  refusal: null,
});

/** Two choices (n = 2) whose chunks interleave, each delta with its logprobs. */
function twoChoices(): ProviderEvent[] {
  const script = new ChatScript('chatcmpl-demo-n2').role(0).role(1);
  const answers: readonly (readonly [string, string])[] = [
    ['Paris', ' is the capital.'],
    ['The capital', ' is Paris.'],
  ];
  for (const part of [0, 1] as const)
    answers.forEach((answer, index) => {
      const content = answer[part];
      script.delta({ content }, null, index, { logprobs: logprobs(content, -0.01 * (part + 1)) });
    });
  return script.finish('stop', 0).finish('stop', 1).usage(14, 10).done();
}

/** Azure OpenAI: a placeholder chunk with the prompt's filter results, then content filtered mid-answer. */
function azureFilter(): ProviderEvent[] {
  const safe = { filtered: false, severity: 'safe' };
  const categories = { hate: safe, self_harm: safe, sexual: safe, violence: safe };
  const script = new ChatScript('chatcmpl-demo-azure', 'gpt-4o-2024-08-06', { system_fingerprint: null, usage: null });
  script.raw('', {
    choices: [],
    created: 0,
    id: '',
    model: '',
    object: '',
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: categories }],
  });
  script.delta({ role: 'assistant', content: '', refusal: null }, null, 0, { content_filter_results: {} });
  for (const content of ['Here is how', ' the plot', ' unfolds:'])
    script.delta({ content }, null, 0, { content_filter_results: categories });
  script.delta({}, 'content_filter', 0, {
    content_filter_results: { ...categories, violence: { filtered: true, severity: 'high' } },
  });
  return script.usage(25, 9).done();
}

export const OPENAI_CHAT_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text',
    title: 'Text',
    summary: 'A role chunk, content deltas, finish_reason stop, the usage chunk, [DONE].',
    events: new ChatScript('chatcmpl-demo-text')
      .role()
      .text(['The capital of France ', 'is Paris.', ' It lies on the Seine.'])
      .finish('stop')
      .usage(18, 12)
      .done(),
  },
  {
    id: 'reasoning',
    title: 'Reasoning (reasoning_content)',
    summary: 'DeepSeek-style reasoning_content deltas before the answer; reasoning tokens in the usage.',
    events: new ChatScript('5f1d0e6a-demo-reasoning', 'deepseek-reasoner')
      .role(0, { content: null, reasoning_content: '' })
      .reasoning(['The user asks for ', 'the capital of France. ', 'That is Paris.'])
      .text(['Paris.'])
      .finish('stop')
      .usage(16, 30, { completion_tokens_details: { reasoning_tokens: 26 } })
      .done(),
  },
  {
    id: 'parallel-tools',
    title: 'Parallel tool calls',
    summary:
      'Text, then two get_weather calls streamed by index (id and name first, arguments after); finish_reason tool_calls.',
    events: new ChatScript('chatcmpl-demo-tools')
      .role()
      .text(['Let me check both cities.'])
      .tool(0, 'call_demo_paris', 'get_weather', ['{"location":', ' "Paris"}'])
      .tool(1, 'call_demo_tokyo', 'get_weather', ['{"location": "To', 'kyo"}'])
      .finish('tool_calls')
      .usage(80, 40)
      .done(),
  },
  {
    id: 'tools-answered',
    title: 'Parallel tool calls, answered',
    summary:
      'What a request whose conversation ends with the tool messages answering the calls gets: the answer, from their results.',
    events: new ChatScript('chatcmpl-demo-answered')
      .role()
      .text(['Paris: sunny, 21 °C. ', 'Tokyo: rain, 14 °C.'])
      .finish('stop')
      .usage(120, 14)
      .done(),
  },
  {
    id: 'n-choices',
    title: 'Two choices (n = 2)',
    summary: 'The chunks of two choices interleave by index, each delta with its logprobs; one message per choice.',
    events: twoChoices(),
  },
  {
    id: 'length',
    title: 'Token limit',
    summary: 'finish_reason length: max_tokens cut the answer short.',
    events: new ChatScript('chatcmpl-demo-length')
      .role()
      .text(['The history of Paris begins', ' with a Celtic tribe,', ' the Parisii, who'])
      .finish('length')
      .usage(20, 16)
      .done(),
  },
  {
    id: 'content-filter',
    title: 'Content filter (Azure)',
    summary:
      "Azure's prompt filter results first, content filter results on every choice, then finish_reason content_filter.",
    events: azureFilter(),
  },
  {
    id: 'openrouter-error',
    title: 'Keep-alives, reasoning, error in a chunk (OpenRouter)',
    summary:
      'Keep-alive comments before the first chunk, reasoning in delta.reasoning, then a chunk with an error member and finish_reason error.',
    events: new ChatScript('gen-demo-openrouter', 'openai/gpt-4o', { provider: 'OpenAI' })
      .raw(COMMENT, 'OPENROUTER PROCESSING')
      .raw(COMMENT, 'OPENROUTER PROCESSING')
      .role()
      .reasoning(['Looking up the capital.'], 'reasoning')
      .text(['The capital is'])
      .chunk([{ index: 0, delta: { content: '' }, finish_reason: 'error' }], {
        error: { code: 'server_error', message: 'Provider disconnected unexpectedly' },
      }).events,
  },
  {
    id: 'error-midstream',
    title: 'Error mid-stream',
    summary: 'Text starts streaming, then data: {"error": …} ends the stream (no [DONE]).',
    events: new ChatScript('chatcmpl-demo-error').role().text(['Working on it']).raw('', { error: SERVER_ERROR })
      .events,
  },
  {
    id: 'error-event',
    title: 'Error as event: error',
    summary: 'Text, then an event: error frame carrying the error object.',
    events: new ChatScript('chatcmpl-demo-error-event')
      .role()
      .text(['Half an ans'])
      .raw('error', { error: { ...SERVER_ERROR, type: 'overloaded_error', message: 'Overloaded' } }).events,
  },
  {
    id: 'cut',
    title: 'Connection dropped',
    summary: 'The stream stops inside the answer: no finish_reason, no [DONE].',
    events: new ChatScript('chatcmpl-demo-cut').role().text(['This answer never', ' fini']).events,
    cut: true,
  },
];

/**
 * The scenario as a request answers it: one whose conversation ends with `tool` messages (the
 * client's results for the calls the last answer finished on) gets the answer from them,
 * whatever scenario the body still names.
 */
export function chatContinuation(scenario: ProviderScenario, body: unknown): ProviderScenario {
  const messages = isJsonObject(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const last: unknown = messages.at(-1);
  if (!isJsonObject(last) || (last['role'] !== 'tool' && last['role'] !== 'function')) return scenario;
  return OPENAI_CHAT_SCENARIOS.find((s) => s.id === 'tools-answered') ?? scenario;
}
