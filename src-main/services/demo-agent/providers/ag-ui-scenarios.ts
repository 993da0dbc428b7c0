import { isJsonObject } from '../../../../src-shared/json/values';
import type { ProviderEvent, ProviderScenario } from './types';

/**
 * Scripted AG-UI runs (docs/protocols/ag-ui.md): data-only events named by their `type`, one
 * run per stream. Text, reasoning (span, message, and text in the chunk spelling), backend
 * tools called in parallel with their results, shared state by snapshot and JSON Patch deltas,
 * a frontend tool the run finishes on (and the run that continues once it is answered), a
 * RUN_ERROR mid-stream and a cut stream.
 */

const THREAD = 'thread-demo';

/** Builds one run's events: every AG-UI event is a data-only SSE event. */
class RunScript {
  private readonly events: ProviderEvent[] = [];

  constructor(private readonly runId: string) {}

  add(type: string, fields: Record<string, unknown> = {}): this {
    this.events.push({ event: '', data: { type, ...fields } });
    return this;
  }

  start(): this {
    return this.add('RUN_STARTED', { threadId: THREAD, runId: this.runId });
  }

  /** One text message streaming these deltas. */
  text(messageId: string, deltas: readonly string[]): this {
    this.add('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
    for (const delta of deltas) this.add('TEXT_MESSAGE_CONTENT', { messageId, delta });
    return this.add('TEXT_MESSAGE_END', { messageId });
  }

  /** One tool call whose arguments stream in these pieces. */
  tool(toolCallId: string, toolCallName: string, args: readonly string[], parentMessageId?: string): this {
    this.add('TOOL_CALL_START', { toolCallId, toolCallName, ...(parentMessageId ? { parentMessageId } : {}) });
    for (const delta of args) this.add('TOOL_CALL_ARGS', { toolCallId, delta });
    return this.add('TOOL_CALL_END', { toolCallId });
  }

  finish(fields: Record<string, unknown> = {}): ProviderEvent[] {
    this.add('RUN_FINISHED', { threadId: THREAD, runId: this.runId, ...fields });
    return this.events;
  }

  list(): ProviderEvent[] {
    return this.events;
  }
}

/** RUN_FINISHED's usage: one TokenUsage entry per provider and model. */
const usage = (inputTokens: number, outputTokens: number): Record<string, unknown>[] => [
  {
    provider: 'openai',
    model: 'gpt-4o',
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
  },
];

const CONFIRM_MESSAGE = 'Book the 09:40 train to Lyon for tomorrow?';

export const AG_UI_SCENARIOS: readonly ProviderScenario[] = [
  {
    id: 'text',
    title: 'Text',
    summary: 'A run with one step and one assistant message; finishes with token usage.',
    events: new RunScript('run-demo-text')
      .start()
      .add('STEP_STARTED', { stepName: 'answer' })
      .text('msg-demo-text', ['Paris is ', 'the capital ', 'of France.'])
      .add('STEP_FINISHED', { stepName: 'answer' })
      .finish({ outcome: { type: 'success' }, usage: usage(180, 9) }),
  },
  {
    id: 'reasoning',
    title: 'Reasoning, then text in chunks',
    summary: 'A reasoning span with one reasoning message, then the answer spelled as TEXT_MESSAGE_CHUNK events.',
    events: new RunScript('run-demo-reasoning')
      .start()
      .add('REASONING_START', { messageId: 'reasoning-demo' })
      .add('REASONING_MESSAGE_START', { messageId: 'reasoning-demo-1', role: 'reasoning' })
      .add('REASONING_MESSAGE_CONTENT', { messageId: 'reasoning-demo-1', delta: 'The user asks for a capital; ' })
      .add('REASONING_MESSAGE_CONTENT', { messageId: 'reasoning-demo-1', delta: 'France’s is Paris.' })
      .add('REASONING_MESSAGE_END', { messageId: 'reasoning-demo-1' })
      .add('REASONING_END', { messageId: 'reasoning-demo' })
      .add('TEXT_MESSAGE_CHUNK', { messageId: 'msg-demo-reasoning', role: 'assistant', delta: 'Paris, ' })
      .add('TEXT_MESSAGE_CHUNK', { delta: 'on the Seine.' })
      .finish({ usage: usage(150, 42) }),
  },
  {
    id: 'parallel-tools',
    title: 'Parallel backend tools',
    summary: 'Two tool calls whose arguments interleave, both answered in the stream, then the answer.',
    events: new RunScript('run-demo-tools')
      .start()
      .add('TOOL_CALL_START', {
        toolCallId: 'call-weather',
        toolCallName: 'get_weather',
        parentMessageId: 'msg-demo-calls',
      })
      .add('TOOL_CALL_START', { toolCallId: 'call-time', toolCallName: 'get_time', parentMessageId: 'msg-demo-calls' })
      .add('TOOL_CALL_ARGS', { toolCallId: 'call-weather', delta: '{"city":' })
      .add('TOOL_CALL_ARGS', { toolCallId: 'call-time', delta: '{"zone":"Europe/Paris"}' })
      .add('TOOL_CALL_ARGS', { toolCallId: 'call-weather', delta: '"Paris"}' })
      .add('TOOL_CALL_END', { toolCallId: 'call-time' })
      .add('TOOL_CALL_END', { toolCallId: 'call-weather' })
      .add('TOOL_CALL_RESULT', { messageId: 'msg-demo-time', toolCallId: 'call-time', content: '14:05', role: 'tool' })
      .add('TOOL_CALL_RESULT', {
        messageId: 'msg-demo-weather',
        toolCallId: 'call-weather',
        content: '{"temperature":21,"sky":"clear"}',
        role: 'tool',
      })
      .text('msg-demo-answer', ['It is 14:05 in Paris, ', '21 °C under a clear sky.'])
      .finish({ usage: usage(420, 31) }),
  },
  {
    id: 'state',
    title: 'Shared state',
    summary:
      'A state snapshot amended by JSON Patch deltas (add, replace, remove, a passing test), with a custom event.',
    events: new RunScript('run-demo-state')
      .start()
      .add('STATE_SNAPSHOT', { snapshot: { plan: { title: 'Trip to Lyon', steps: [] }, status: 'planning' } })
      .add('STATE_DELTA', {
        delta: [{ op: 'add', path: '/plan/steps/-', value: { label: 'Book the train', done: false } }],
      })
      .add('STATE_DELTA', {
        delta: [{ op: 'add', path: '/plan/steps/-', value: { label: 'Book the hotel', done: false } }],
      })
      .add('CUSTOM', { name: 'progress', value: { percent: 50 } })
      .add('STATE_DELTA', {
        delta: [
          { op: 'test', path: '/status', value: 'planning' },
          { op: 'replace', path: '/plan/steps/0/done', value: true },
          { op: 'replace', path: '/status', value: 'booking' },
        ],
      })
      .add('STATE_DELTA', { delta: [{ op: 'remove', path: '/plan/steps/1' }] })
      .text('msg-demo-state', ['The train is booked; ', 'the hotel is off the plan.'])
      .finish(),
  },
  {
    id: 'frontend-tool',
    title: 'A frontend tool that waits',
    summary:
      'The agent asks the user to confirm through a tool the frontend runs; the run finishes with the call unanswered.',
    events: new RunScript('run-demo-confirm')
      .start()
      .text('msg-demo-confirm', ['I found a train at 09:40. ', 'Let me check with you first.'])
      .tool(
        'call-demo-confirm',
        'user_confirm',
        ['{"message":', JSON.stringify(CONFIRM_MESSAGE), '}'],
        'msg-demo-confirm',
      )
      .finish({ outcome: { type: 'success', pendingToolCallIds: ['call-demo-confirm'] } }),
  },
  {
    id: 'frontend-tool-answered',
    title: 'The run after the frontend answered',
    summary: 'What the agent streams once the input ends with the tool message that answers user_confirm.',
    events: new RunScript('run-demo-confirmed')
      .start()
      .text('msg-demo-confirmed', ['Confirmed — ', 'the 09:40 train to Lyon is booked.'])
      .finish(),
  },
  {
    id: 'run-error',
    title: 'RUN_ERROR mid-stream',
    summary: 'The answer starts, then the agent reports its failure with RUN_ERROR.',
    events: new RunScript('run-demo-error')
      .start()
      .text('msg-demo-error', ['Looking that up'])
      .add('RUN_ERROR', { message: 'The model provider is overloaded.', code: 'provider_overloaded' })
      .list(),
  },
  {
    id: 'cut',
    title: 'Connection dropped',
    summary: 'The stream stops inside the answer, before RUN_FINISHED.',
    events: (() => {
      const script = new RunScript('run-demo-cut').start();
      script.add('TEXT_MESSAGE_START', { messageId: 'msg-demo-cut', role: 'assistant' });
      script.add('TEXT_MESSAGE_CONTENT', { messageId: 'msg-demo-cut', delta: 'This answer never' });
      return script.list();
    })(),
    cut: true,
  },
];

/** The run a request asks for by its input: one whose last message answers a tool call continues the paused run. */
export function chooseAgUiScenario(body: unknown): string | undefined {
  if (!isJsonObject(body) || !Array.isArray(body['messages'])) return undefined;
  const last: unknown = body['messages'].at(-1);
  return isJsonObject(last) && last['role'] === 'tool' ? 'frontend-tool-answered' : undefined;
}

/** The RunAgentInput the connect preset sends: one user message, the frontend tool the agent may call. */
export const AG_UI_SAMPLE_INPUT: Record<string, unknown> = {
  threadId: THREAD,
  runId: 'run-demo-1',
  messages: [{ id: 'msg-user-1', role: 'user', content: 'Book me a train to Lyon tomorrow morning.' }],
  tools: [
    {
      name: 'user_confirm',
      description: 'Ask the user to confirm an action; answers yes or no.',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  ],
  state: {},
  context: [],
  forwardedProps: {},
};
