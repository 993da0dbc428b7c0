import { CHART_PNG_BASE64 } from '../sample-image';
import { APPROVAL_CALL, APPROVAL_ID, APPROVED_TOOL, CONFIRM_CALL, CONFIRM_TOOL } from './ai-sdk-answers';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted Vercel AI SDK streams to a `useChat` frontend (docs/protocols/ai-sdk-ui.md), each in
 * both wires: the UI message stream (AI SDK 5: one JSON chunk per SSE event, `[DONE]` last) and
 * the v4 data stream (one `CODE:JSON` line per part). Text, reasoning, parallel tool calls the
 * server runs, a tool the frontend runs (the run waits for its answer) and the two
 * continuations its answer leads to, a tool that needs the user's approval and its two
 * continuations (AI SDK 5 only), an error mid-stream, a cut stream, and sources, a file and
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

  /** AI SDK 5: the call waits for the frontend to approve it (the tool has `needsApproval`). */
  approvalRequest(approvalId: string, toolCallId: string): this {
    return this.chunk('tool-approval-request', { approvalId, toolCallId });
  }

  /** AI SDK 5: the frontend denied the call, so the tool did not run. */
  toolOutputDenied(toolCallId: string): this {
    return this.chunk('tool-output-denied', { toolCallId });
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
  /** AI SDK 5's tool approvals have no v4 form: a scenario of them is the UI stream's only. */
  uiOnly?: boolean;
  write(script: ChatScript): ChatScript;
}

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
        .toolCall(CONFIRM_CALL, CONFIRM_TOOL, ['{"message":', '"Delete the draft \\"Q3 plan\\"?"}'])
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
    id: 'tool-approval',
    title: 'A tool that needs approval',
    summary:
      'The server runs delete_file only once the user approves it (needsApproval): the run waits for the approval.',
    uiOnly: true,
    write: (s) =>
      s
        .start()
        .step()
        .text('txt-0', ['I will delete ', '"notes.txt" once you approve.'])
        .toolCall(APPROVAL_CALL, APPROVED_TOOL, ['{"path":', '"notes.txt"}'])
        .approvalRequest(APPROVAL_ID, APPROVAL_CALL)
        .finishStep('tool-calls', 48, 26)
        .finish('tool-calls', 48, 26),
  },
  {
    id: 'tool-approval-approved',
    messageId: 'msg-tool-approval',
    title: 'Continuation after an approval',
    summary: 'The frontend approved the call: the server runs the tool, then the model answers.',
    uiOnly: true,
    write: (s) =>
      s
        .start()
        .step()
        .toolOutput(APPROVAL_CALL, { deleted: 'notes.txt' })
        .finishStep('tool-calls', 80, 0)
        .step()
        .text('txt-1', ['Done — ', '"notes.txt" is deleted.'])
        .finishStep('stop', 92, 9)
        .finish('stop', 172, 9),
  },
  {
    id: 'tool-approval-denied',
    messageId: 'msg-tool-approval',
    title: 'Continuation after a denial',
    summary: 'The frontend denied the call: the tool does not run, and the model says so.',
    uiOnly: true,
    write: (s) =>
      s
        .start()
        .step()
        .toolOutputDenied(APPROVAL_CALL)
        .text('txt-1', ['Understood — ', '"notes.txt" stays.'])
        .finishStep('stop', 84, 8)
        .finish('stop', 84, 8),
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
  return SPECS.filter((spec) => wire === 'ui' || !spec.uiOnly).map((spec) => ({
    id: spec.id,
    title: spec.title,
    summary: spec.summary,
    events: spec.write(new ChatScript(wire, spec.messageId ?? `msg-${spec.id}`)).events,
    ...(spec.cut ? { cut: true } : {}),
  }));
}

export const AI_SDK_UI_SCENARIOS = scenarios('ui');
export const AI_SDK_DATA_SCENARIOS = scenarios('data');
