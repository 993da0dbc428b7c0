import { isJsonObject, parseJson } from '../../json/values';
import type { PendingTool } from '../../reconstruct/types';
import { answerText } from '../provider/conversation';
import type { ClientToolAnswer, ClientToolContinuation } from '../types';

/**
 * How a `useChat` frontend continues a run paused on its tools: `addToolResult` puts each output
 * into the assistant message's tool part, and the frontend sends the whole conversation again,
 * the request body as before with its `messages` followed by that assistant message (AI SDK 5:
 * the tool parts `output-available`, or `output-error` for an error; v4: the tool invocations
 * `result`). When the last message sent is already that assistant message (a second pause of
 * one message), the new parts are added to it, as the frontend keeps one message per response.
 *
 * An answer's content is the tool's output: a JSON object or array when it parses as one (the
 * answer panel's JSON mode), otherwise the text itself. An approval's content is its reason.
 */
export const aiSdkContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    const parsed = parseJson(previousBody);
    const body = parsed.ok ? parsed.value : undefined;
    if (!isJsonObject(body) || !Array.isArray(body['messages']))
      throw new Error(
        'The request that paused has no JSON body with a messages array, and the AI SDK continues a run by sending the conversation again.',
      );
    const wire = isJsonObject(pause) && pause['wire'] === 'data' ? 'data' : 'ui';
    const paused = isJsonObject(pause) && isJsonObject(pause['message']) ? pause['message'] : emptyMessage(calls, wire);
    const byId = new Map(answers.map((answer) => [answer.toolUseId, answer]));
    const answered =
      wire === 'data'
        ? answerDataStream(paused, byId)
        : answerUi(paused, byId, new Map(calls.map((call) => [call.toolUseId, call])));
    return JSON.stringify({ ...body, messages: withAssistant(body['messages'] as unknown[], answered, wire) });
  },

  /** The answered tool parts (v4: tool invocations) of the assistant message the body ends with. */
  answersIn(text) {
    const body = parseJson(text);
    const messages = body.ok && isJsonObject(body.value) ? body.value['messages'] : undefined;
    const last: unknown = Array.isArray(messages) ? messages.at(-1) : undefined;
    if (!isJsonObject(last) || last['role'] !== 'assistant') return null;
    const answers: ClientToolAnswer[] = [];
    const parts = Array.isArray(last['parts']) ? (last['parts'] as unknown[]) : [];
    for (const part of parts) {
      const invocation = isJsonObject(part) && isJsonObject(part['toolInvocation']) ? part['toolInvocation'] : part;
      const answer = isJsonObject(invocation) ? answerOfPart(invocation) : undefined;
      if (answer) answers.push(answer);
    }
    return answers;
  },
};

/** A tool part's answer as the frontend gave it (UI: output, error or approval; v4: result), if it has one. */
function answerOfPart(part: Message): ClientToolAnswer | undefined {
  const toolUseId = part['toolCallId'];
  if (typeof toolUseId !== 'string') return undefined;
  switch (part['state']) {
    case 'output-available':
      return { toolUseId, content: answerText(part['output']) };
    case 'result':
      return { toolUseId, content: answerText(part['result']) };
    case 'output-error':
      return { toolUseId, content: answerText(part['errorText']), isError: true };
    case 'approval-responded': {
      const approval = isJsonObject(part['approval']) ? part['approval'] : {};
      const reason = approval['reason'];
      return { toolUseId, content: typeof reason === 'string' ? reason : '', approved: approval['approved'] === true };
    }
    default:
      return undefined;
  }
}

type Answers = ReadonlyMap<string, ClientToolAnswer>;
type Message = Record<string, unknown>;

/** The tool's output as a frontend passes it: the answer's JSON object or array, else its text. */
function outputOf(content: string): unknown {
  const parsed = parseJson(content);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : content;
}

/**
 * AI SDK 5: each answered tool part is `output-available` with its output, or `output-error`;
 * a part that waited for its approval is `approval-responded`, its approval approved or denied
 * with the reason given (`addToolApprovalResponse`), and the server runs the tool or not.
 */
function answerUi(message: Message, answers: Answers, calls: ReadonlyMap<string, PendingTool>): Message {
  const parts = Array.isArray(message['parts']) ? (message['parts'] as unknown[]) : [];
  return {
    ...message,
    parts: parts.map((part) => {
      const answer =
        isJsonObject(part) && typeof part['toolCallId'] === 'string' ? answers.get(part['toolCallId']) : undefined;
      if (!answer || !isJsonObject(part)) return part;
      const { output: _o, errorText: _e, ...rest } = part;
      if (answer.approved !== undefined) {
        const approval = part['approval'];
        const id = isJsonObject(approval) && typeof approval['id'] === 'string' ? approval['id'] : undefined;
        return {
          ...rest,
          state: 'approval-responded',
          approval: {
            id: id ?? calls.get(answer.toolUseId)?.approvalId ?? '',
            approved: answer.approved,
            ...(answer.content !== '' ? { reason: answer.content } : {}),
          },
        };
      }
      return answer.isError
        ? { ...rest, state: 'output-error', errorText: answer.content }
        : { ...rest, state: 'output-available', output: outputOf(answer.content) };
    }),
  };
}

/** v4: each answered tool invocation is a `result`, in the parts and in `toolInvocations`. */
function answerDataStream(message: Message, answers: Answers): Message {
  const answer = (invocation: unknown): unknown => {
    const found =
      isJsonObject(invocation) && typeof invocation['toolCallId'] === 'string'
        ? answers.get(invocation['toolCallId'])
        : undefined;
    return found && isJsonObject(invocation)
      ? { ...invocation, state: 'result', result: outputOf(found.content) }
      : invocation;
  };
  const list = (key: string): unknown[] => (Array.isArray(message[key]) ? (message[key] as unknown[]) : []);
  return {
    ...message,
    parts: list('parts').map((part) =>
      isJsonObject(part) && part['type'] === 'tool-invocation'
        ? { ...part, toolInvocation: answer(part['toolInvocation']) }
        : part,
    ),
    toolInvocations: list('toolInvocations').map(answer),
  };
}

/** The conversation with the assistant message last: added, or merged into the last one when it is the same message. */
function withAssistant(messages: readonly unknown[], assistant: Message, wire: 'ui' | 'data'): unknown[] {
  const last = messages.at(-1);
  if (!isJsonObject(last) || last['role'] !== 'assistant' || last['id'] !== assistant['id'] || assistant['id'] === '')
    return [...messages, assistant];
  const concat = (key: string): unknown[] => [
    ...(Array.isArray(last[key]) ? (last[key] as unknown[]) : []),
    ...(Array.isArray(assistant[key]) ? (assistant[key] as unknown[]) : []),
  ];
  const merged: Message = { ...last, ...assistant, parts: concat('parts') };
  if (wire === 'data') {
    merged['toolInvocations'] = concat('toolInvocations');
    merged['content'] =
      `${typeof last['content'] === 'string' ? last['content'] : ''}${typeof assistant['content'] === 'string' ? assistant['content'] : ''}`;
  }
  return [...messages.slice(0, -1), merged];
}

/** The message a pause without one stands for: its calls, input available. */
function emptyMessage(calls: readonly PendingTool[], wire: 'ui' | 'data'): Message {
  if (wire === 'data') {
    const invocations = calls.map((c) => ({
      state: 'call',
      step: 0,
      toolCallId: c.toolUseId,
      toolName: c.name,
      args: c.input,
    }));
    return {
      id: '',
      role: 'assistant',
      content: '',
      parts: invocations.map((toolInvocation) => ({ type: 'tool-invocation', toolInvocation })),
      toolInvocations: invocations,
    };
  }
  return {
    id: '',
    role: 'assistant',
    parts: calls.map((c) => ({
      type: `tool-${c.name}`,
      toolCallId: c.toolUseId,
      state: c.approvalId !== undefined ? 'approval-requested' : 'input-available',
      input: c.input,
      ...(c.approvalId !== undefined ? { approval: { id: c.approvalId } } : {}),
    })),
  };
}
