import { isJsonObject } from '../../../../src-shared/json/values';
import { CHART_PNG_BASE64 } from '../sample-image';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted Vercel AI SDK streams to a `useChat` frontend (docs/protocols/ai-sdk-ui.md), each in
 * both wires: the UI message stream (AI SDK 5: one JSON chunk per SSE event, `[DONE]` last) and
 * the v4 data stream (one `CODE:JSON` line per part). Text, reasoning, parallel tool calls the
 * server runs, a tool the frontend runs (the run waits for its answer) and the two
 * continuations its answer leads to, an error mid-stream, a cut stream, and sources, a file and
 * data parts.
 */

type Wire = 'ui' | 'data';

const MODEL = 'demo-model';

/** One scenario's parts, written in the chosen wire. */
class ChatScript {
  readonly events: ProviderEvent[] = [];
  private steps = 0;

  constructor(
    private readonly wire: Wire,
    private readonly messageId: string,
  ) {}

  private chunk(type: string, fields: Record<string, unknown> = {}): this {
    this.events.push({ event: '', data: { type, ...fields } });
    return this;
  }

  private line(code: string, value: unknown): this {
    this.events.push({ event: '', data: `${code}:${JSON.stringify(value)}` });
    return this;
  }

  /** The message starts (v4 starts with its first step, whose start part names the message). */
  start(): this {
    return this.wire === 'ui'
      ? this.chunk('start', { messageId: this.messageId, messageMetadata: { model: MODEL } })
      : this;
  }

  step(): this {
    const stepId = this.steps === 0 ? this.messageId : `${this.messageId}-${this.steps}`;
    this.steps++;
    return this.wire === 'ui' ? this.chunk('start-step') : this.line('f', { messageId: stepId });
  }

  text(id: string, deltas: readonly string[]): this {
    return this.streamed('text', id, deltas);
  }

  reasoning(id: string, deltas: readonly string[]): this {
    return this.streamed('reasoning', id, deltas);
  }

  /** Text the stream is cut inside of: UI text without its end. */
  unfinishedText(id: string, deltas: readonly string[]): this {
    return this.streamed('text', id, deltas, false);
  }

  private streamed(kind: 'text' | 'reasoning', id: string, deltas: readonly string[], ends = true): this {
    if (this.wire === 'data') {
      for (const delta of deltas) this.line(kind === 'text' ? '0' : 'g', delta);
      return this;
    }
    this.chunk(`${kind}-start`, { id });
    for (const delta of deltas) this.chunk(`${kind}-delta`, { id, delta });
    return ends ? this.chunk(`${kind}-end`, { id }) : this;
  }

  /** A tool call whose input streams in `pieces` (they join to the input's JSON). */
  toolCall(id: string, name: string, pieces: readonly string[]): this {
    const input: unknown = JSON.parse(pieces.join(''));
    if (this.wire === 'data') {
      this.line('b', { toolCallId: id, toolName: name });
      for (const piece of pieces) this.line('c', { toolCallId: id, argsTextDelta: piece });
      return this.line('9', { toolCallId: id, toolName: name, args: input });
    }
    this.chunk('tool-input-start', { toolCallId: id, toolName: name });
    for (const piece of pieces) this.chunk('tool-input-delta', { toolCallId: id, inputTextDelta: piece });
    return this.chunk('tool-input-available', { toolCallId: id, toolName: name, input });
  }

  toolOutput(id: string, output: unknown): this {
    return this.wire === 'ui'
      ? this.chunk('tool-output-available', { toolCallId: id, output })
      : this.line('a', { toolCallId: id, result: output });
  }

  source(id: string, url: string, title: string): this {
    return this.wire === 'ui'
      ? this.chunk('source-url', { sourceId: id, url, title })
      : this.line('h', { sourceType: 'url', id, url, title });
  }

  /** UI: a `data-<name>` part; v4: a data part holding the same value. */
  data(name: string, id: string, value: unknown): this {
    return this.wire === 'ui' ? this.chunk(`data-${name}`, { id, data: value }) : this.line('2', [{ [name]: value }]);
  }

  /** A file part: UI parts carry a URL, v4 ones base64 data. */
  file(mediaType: string, base64: string): this {
    return this.wire === 'ui'
      ? this.chunk('file', { mediaType, url: `data:${mediaType};base64,${base64}` })
      : this.line('k', { mimeType: mediaType, data: base64 });
  }

  /** The server's error part; the UI stream then ends the step and the message as streamText does. */
  error(text: string): this {
    return this.wire === 'ui' ? this.chunk('error', { errorText: text }) : this.line('3', text);
  }

  finishStep(reason: string, input: number, output: number): this {
    return this.wire === 'ui'
      ? this.chunk('finish-step')
      : this.line('e', { finishReason: reason, usage: usage(input, output), isContinued: false });
  }

  finish(reason: string, input: number, output: number): this {
    if (this.wire === 'data') return this.line('d', { finishReason: reason, usage: usage(input, output) });
    this.chunk('finish', {
      finishReason: reason,
      messageMetadata: { totalUsage: { inputTokens: input, outputTokens: output, totalTokens: input + output } },
    });
    this.events.push({ event: '', data: '[DONE]' });
    return this;
  }
}

const usage = (input: number, output: number) => ({ promptTokens: input, completionTokens: output });

interface ScenarioSpec {
  id: string;
  title: string;
  summary: string;
  /** The message id, `msg-<id>` by default: a continuation goes on with the message it continues, as a server given the conversation's messages does. */
  messageId?: string;
  cut?: boolean;
  write(script: ChatScript): ChatScript;
}

/** The tool the frontend runs: it asks the user, as the upstream demo's user_confirm does. */
export const CONFIRM_TOOL = 'user_confirm';

const SPECS: readonly ScenarioSpec[] = [
  {
    id: 'text',
    title: 'Text',
    summary: 'One message of streamed text, with the model and usage in its metadata.',
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-0', ['The capital ', 'of France ', 'is **Paris**.'])
        .finishStep('stop', 14, 9)
        .finish('stop', 14, 9),
  },
  {
    id: 'reasoning',
    title: 'Reasoning, then text',
    summary: 'The model reasons before it answers.',
    write: (s) =>
      s
        .start()
        .step()
        .reasoning('rsn-0', ['The user asks for 12 × 7. ', '12 × 7 = 84.'])
        .text('txt-0', ['12 × 7 ', 'is 84.'])
        .finishStep('stop', 20, 31)
        .finish('stop', 20, 31),
  },
  {
    id: 'parallel-tools',
    title: 'Parallel tool calls',
    summary: 'Two weather calls the server runs in one step, then the answer in a second step.',
    write: (s) =>
      s
        .start()
        .step()
        .toolCall('call_paris', 'get_weather', ['{"city":', '"Paris"}'])
        .toolCall('call_london', 'get_weather', ['{"city":', '"London"}'])
        .toolOutput('call_paris', { city: 'Paris', celsius: 21, sky: 'sunny' })
        .toolOutput('call_london', { city: 'London', celsius: 16, sky: 'rain' })
        .finishStep('tool-calls', 40, 22)
        .step()
        .text('txt-1', ['Paris: 21 °C and sunny. ', 'London: 16 °C and rain.'])
        .finishStep('stop', 90, 14)
        .finish('stop', 130, 36),
  },
  {
    id: 'client-tool',
    title: 'A tool the frontend runs',
    summary:
      'The model asks the user to confirm (user_confirm has no server implementation): the run waits for the answer.',
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-0', ['I can delete the draft ', '"Q3 plan" for you.'])
        .toolCall('call_confirm', CONFIRM_TOOL, ['{"message":', '"Delete the draft \\"Q3 plan\\"?"}'])
        .finishStep('tool-calls', 52, 30)
        .finish('tool-calls', 52, 30),
  },
  {
    id: 'client-tool-confirmed',
    messageId: 'msg-client-tool',
    title: 'Continuation after a yes',
    summary: 'What the server streams once the frontend sends the conversation back with the answer "yes".',
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-1', ['Confirmed — ', 'the draft "Q3 plan" is deleted.'])
        .finishStep('stop', 96, 12)
        .finish('stop', 96, 12),
  },
  {
    id: 'client-tool-declined',
    messageId: 'msg-client-tool',
    title: 'Continuation after another answer',
    summary: 'What the server streams once the frontend sends the conversation back with any answer but "yes".',
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-1', ['Understood — ', 'the draft "Q3 plan" stays.'])
        .finishStep('stop', 96, 10)
        .finish('stop', 96, 10),
  },
  {
    id: 'sources-data',
    title: 'Sources, a file and data parts',
    summary: 'A cited answer with two sources, a data part the application renders and a generated image.',
    write: (s) =>
      s
        .start()
        .step()
        .data('weather', 'weather-1', { city: 'Paris', celsius: 21, status: 'loaded' })
        .text('txt-0', ['Paris is the capital of France ', 'and its largest city.'])
        .source('src-1', 'https://en.wikipedia.org/wiki/Paris', 'Paris — Wikipedia')
        .source('src-2', 'https://www.britannica.com/place/Paris', 'Paris | Britannica')
        .file('image/png', CHART_PNG_BASE64)
        .finishStep('stop', 30, 24)
        .finish('stop', 30, 24),
  },
  {
    id: 'error-midstream',
    title: 'An error mid-stream',
    summary: 'The model fails after some text: an error part, then the step and message end as failed.',
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-0', ['Let me look ', 'that up'])
        .error('The model is overloaded. Try again later.')
        .finishStep('error', 12, 4)
        .finish('error', 12, 4),
  },
  {
    id: 'cut',
    title: 'A cut stream',
    summary: 'The connection drops mid-text: no finish part (and no [DONE]).',
    cut: true,
    write: (s) => s.start().step().unfinishedText('txt-0', ['This answer is ', 'cut off after']),
  },
];

function scenarios(wire: Wire): ProviderScenario[] {
  return SPECS.map((spec) => ({
    id: spec.id,
    title: spec.title,
    summary: spec.summary,
    events: spec.write(new ChatScript(wire, spec.messageId ?? `msg-${spec.id}`)).events,
    ...(spec.cut ? { cut: true } : {}),
  }));
}

export const AI_SDK_UI_SCENARIOS = scenarios('ui');
export const AI_SDK_DATA_SCENARIOS = scenarios('data');

/**
 * The scenario as a request answers it: a request whose last message is the assistant's with
 * the user_confirm call answered (AI SDK 5: a tool part `output-available`; v4: a tool
 * invocation `result`) continues the client-tool run, as the answer says, whatever scenario
 * the body still names (a frontend sends its body fields again with the conversation).
 */
export function continuation(scenarios: readonly ProviderScenario[]) {
  return (scenario: ProviderScenario, body: unknown): ProviderScenario => {
    const answer = confirmAnswer(body);
    if (answer === undefined) return scenario;
    const id = answer === 'yes' ? 'client-tool-confirmed' : 'client-tool-declined';
    return scenarios.find((s) => s.id === id) ?? scenario;
  };
}

/** The answer to user_confirm the last message carries, lower-cased, if it carries one. */
function confirmAnswer(body: unknown): string | undefined {
  const messages = isJsonObject(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const last: unknown = messages.at(-1);
  if (!isJsonObject(last) || last['role'] !== 'assistant') return undefined;
  const parts = Array.isArray(last['parts']) ? (last['parts'] as unknown[]) : [];
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    const invocation = isJsonObject(part['toolInvocation']) ? part['toolInvocation'] : undefined;
    const answer =
      part['type'] === `tool-${CONFIRM_TOOL}` && part['state'] === 'output-available'
        ? part['output']
        : invocation?.['toolName'] === CONFIRM_TOOL && invocation['state'] === 'result'
          ? invocation['result']
          : undefined;
    if (answer !== undefined) return typeof answer === 'string' ? answer.trim().toLowerCase() : '';
  }
  return undefined;
}
