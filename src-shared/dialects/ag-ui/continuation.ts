import { jsonText } from '../../json/tree';
import { parseJsonObject } from '../../json/values';
import { answersInEntries, answerText } from '../provider/conversation';
import type { ClientToolContinuation } from '../types';

/** A run id the paused one did not have: `<id>-continued-<n>`, counting on from a continuation's own. */
export function nextRunId(runId: unknown): string {
  const base = typeof runId === 'string' && runId !== '' ? runId : 'run';
  const counted = /^(.*)-continued-(\d+)$/.exec(base);
  return counted ? `${counted[1]}-continued-${Number(counted[2]) + 1}` : `${base}-continued-1`;
}

/**
 * How an AG-UI frontend continues a run that finished with calls to its tools
 * (docs/protocols/ag-ui.md, "Frontend tools"): a new RunAgentInput on the same thread with a
 * new run id, whose messages are the previous ones, the assistant message that made the calls,
 * and one tool message per answer (a failure is an answer too, with `error` set). The tools,
 * state, context and forwarded props go on as they were; anything else the paused body held
 * (a demo's `scenario`, say) is not part of RunAgentInput and is left out, as a frontend
 * building its input from its own state would. The assistant message's id is the first
 * call's (a client does the same for calls with no parent message).
 */
export const agUiClientTools: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers }) {
    const input = parseJsonObject(previousBody);
    if (!input)
      throw new Error(
        'The paused request body is not a JSON object (an AG-UI RunAgentInput), so it cannot be continued.',
      );
    const threadId = input['threadId'];
    if (typeof threadId !== 'string')
      throw new Error('The paused RunAgentInput has no string threadId, so there is no thread to continue.');
    const messages = input['messages'] ?? [];
    if (!Array.isArray(messages))
      throw new Error(
        'The paused RunAgentInput has a "messages" that is not an array; its history cannot be continued.',
      );
    const answerOf = new Map(answers.map((answer) => [answer.toolUseId, answer]));
    const missing = calls.filter((call) => !answerOf.has(call.toolUseId)).map((call) => call.toolUseId);
    if (missing.length > 0)
      throw new Error(
        `Every call the run left must be answered before the thread goes on; no answer for ${missing.join(', ')}.`,
      );
    const assistant = {
      id: `assistant-${calls[0]?.toolUseId ?? 'calls'}`,
      role: 'assistant',
      toolCalls: calls.map((call) => ({
        id: call.toolUseId,
        type: 'function',
        function: {
          name: call.name,
          arguments: typeof call.input === 'string' ? call.input : jsonText(call.input ?? {}),
        },
      })),
    };
    const toolMessages = calls.map((call) => {
      const answer = answerOf.get(call.toolUseId);
      const content = answer?.content ?? '';
      return {
        id: `tool-${call.toolUseId}`,
        role: 'tool',
        toolCallId: call.toolUseId,
        content,
        ...(answer?.isError ? { error: content } : {}),
      };
    });
    return jsonText({
      threadId,
      runId: nextRunId(input['runId']),
      ...('protocolVersion' in input ? { protocolVersion: input['protocolVersion'] } : {}),
      state: input['state'] ?? {},
      messages: [...(messages as unknown[]), assistant, ...toolMessages],
      tools: input['tools'] ?? [],
      context: input['context'] ?? [],
      forwardedProps: input['forwardedProps'] ?? {},
    });
  },

  /** The tool messages of the RunAgentInput (a failure is one with `error` set). */
  answersIn(body) {
    return answersInEntries(body, 'messages', (message) =>
      message['role'] === 'tool' && typeof message['toolCallId'] === 'string'
        ? [
            {
              toolUseId: message['toolCallId'],
              content: answerText(message['content']),
              ...(message['error'] !== undefined ? { isError: true } : {}),
            },
          ]
        : [],
    );
  },
};
