import { isJsonObject, parseJson } from '../../json/values';
import {
  answerEntries,
  answersInEntries,
  answerText,
  emitClientPause,
  pausedConversation,
} from '../provider/conversation';
import type { ProviderEventContext } from '../provider/event-context';
import type { ClientToolContinuation } from '../types';
import type { Completion } from './completion';
import { callId, FUNCTION_CALL_ID, type ToolCall } from './tool-calls';

/*
 * The Chat Completions API runs no tool: a choice that finishes with `tool_calls` (or the
 * legacy `function_call`, or `stop` after the call a named `tool_choice` forced) waits for its client to run the calls and send the conversation
 * again with their results. The stream's end says so as an `awaiting_frontend_tools` pause,
 * and the answers continue the run as the OpenAI SDKs' users do: the request's messages, then
 * the assistant message as it streamed, then one `tool` message per call.
 */

/**
 * Whether a choice's finish leaves its calls to the client (the API runs no tool, so every call
 * it finishes on is one): `tool_calls`, the legacy `function_call`, or `stop` after named calls,
 * which is how OpenAI and vLLM finish a call that a named `tool_choice` forced. A `stop` whose
 * calls have no name (TGI's end-of-turn token in a call no fragment began) leaves nothing a
 * client can call.
 */
export const leavesCallsToClient = (reason: string, calls: readonly ToolCall[]): boolean =>
  reason === 'tool_calls' ||
  reason === 'function_call' ||
  (reason === 'stop' && calls.length > 0 && calls.every((call) => call.name !== ''));

/** The arguments as an object for the answer panel: their JSON when they parse as an object, else empty. */
function inputOf(args: string): Record<string, unknown> {
  const parsed = parseJson(args);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : {};
}

/**
 * The stream ended with the completion's first choice (the one a client continues) waiting on
 * calls: the pause, with the assistant message the client sends back (`message`) and whether
 * the calls are the legacy function_call.
 */
export function pauseOnClientCalls(ctx: ProviderEventContext, completion: Completion): void {
  const choice = completion.choices.get(0);
  const calls = choice?.clientCalls ?? [];
  if (!choice || calls.length === 0) return;
  const legacy = calls.every((call) => call.legacy);
  const args = calls.map((call) => call.args.join(''));
  const message: Record<string, unknown> = { role: 'assistant', content: choice.content.text() };
  // OpenRouter keeps the reasoning of a tool loop only if the client sends its details back.
  const details = choice.reasoningDetails.list();
  if (details.length > 0) message['reasoning_details'] = details;
  // A spoken answer goes back by its id (the API keeps the audio until it expires).
  if (choice.audio.audioId !== '') message['audio'] = { id: choice.audio.audioId };
  if (legacy) message['function_call'] = { name: calls[0]?.name ?? '', arguments: args[0] ?? '' };
  else
    message['tool_calls'] = calls.map((call, i) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: args[i] ?? '' },
      // Sent back as it came: Gemini 3 refuses a tool result whose call lost its thought signature.
      ...(call.extraContent !== undefined ? { extra_content: call.extraContent } : {}),
    }));
  const tools = calls.map((call, i) => ({
    tool_use_id: callId(call),
    name: call.name,
    input: inputOf(args[i] ?? ''),
  }));
  emitClientPause(
    ctx.next(ctx.frame, choice.agent),
    { message_id: completion.id },
    tools,
    { message },
    { id: completion.id },
  );
}

/**
 * The request that continues the run: the body that paused, its `messages` followed by the
 * assistant message and a `tool` message per answer (`function` for the legacy function_call),
 * in the order the calls came. Chat Completions has no error flag for a result: an error is
 * sent as its text.
 */
export const openAiChatContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    const { body, messages, message } = pausedConversation(previousBody, pause, '');
    const results = answerEntries(calls, answers, (call, answer) =>
      call.toolUseId === FUNCTION_CALL_ID && isJsonObject(message['function_call'])
        ? { role: 'function', name: call.name, content: answer.content }
        : { role: 'tool', tool_call_id: call.toolUseId, content: answer.content },
    );
    return JSON.stringify({ ...body, messages: [...messages, message, ...results] });
  },

  /** The conversation's `tool` messages (a legacy `function` message answers the function_call). */
  answersIn(body) {
    return answersInEntries(body, 'messages', (message) => {
      const content = answerText(message['content']);
      if (message['role'] === 'function') return [{ toolUseId: FUNCTION_CALL_ID, content }];
      const id = message['tool_call_id'];
      return message['role'] === 'tool' && typeof id === 'string' ? [{ toolUseId: id, content }] : [];
    });
  },
};
