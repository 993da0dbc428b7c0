import { isJsonObject, parseJson } from '../../json/values';
import {
  answerEntries,
  answersByName,
  answerText,
  emitClientPause,
  pausedConversation,
} from '../provider/conversation';
import type { ProviderEventContext } from '../provider/event-context';
import type { ClientToolContinuation } from '../types';
import type { OllamaResponse } from './response';

/*
 * Ollama runs no tool: a response of `/api/chat` that ends well after tool calls waits for its
 * client to run them and send the conversation again with their results. The response's done
 * line says so as an `awaiting_frontend_tools` pause, and the answers continue the run as
 * Ollama's clients do: the request's messages, then the assistant message as it streamed,
 * then one `tool` message per call, naming its tool (docs/protocols/ollama.md).
 */

/** A tool call of the response, as its line carried it. */
export interface ClientCall {
  /** The id the answer panel knows it by: the one it was sent with, else one made up. */
  id: string;
  /** The id the line sent ('' when it sent none: Ollama's own server names no call). */
  sentId: string;
  name: string;
  /** Its arguments, as sent (an object, which a client passes to the tool). */
  args: unknown;
}

/** The response ended with calls for its client: the pause, with the assistant message the client sends back. */
export function pauseOnClientCalls(ctx: ProviderEventContext, response: OllamaResponse): void {
  const { calls } = response;
  if (calls.length === 0) return;
  const message = {
    role: 'assistant',
    content: response.content.text() ?? '',
    tool_calls: calls.map((call) => ({
      ...(call.sentId !== '' ? { id: call.sentId } : {}),
      function: { name: call.name, arguments: call.args },
    })),
  };
  const tools = calls.map((call) => ({
    tool_use_id: call.id,
    name: call.name,
    input: isJsonObject(call.args) ? call.args : {},
  }));
  emitClientPause(ctx, response.ids(), tools, { message });
}

/**
 * The request that continues the run: the body that paused, its `messages` followed by the
 * assistant message and a `tool` message per answer (`tool_name` saying which tool answered, as
 * Ollama's docs show it), in the order the calls came. Ollama has no error flag for a result:
 * an error is sent as its text.
 */
export const ollamaContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    const { body, messages, message } = pausedConversation(previousBody, pause, ' (an /api/chat request)');
    const results = answerEntries(calls, answers, (call, answer) => ({
      role: 'tool',
      tool_name: call.name,
      content: answer.content,
    }));
    return JSON.stringify({ ...body, messages: [...messages, message, ...results] });
  },

  /** The `tool` messages after the conversation's last assistant message, by the tool each names. */
  answersIn(body, calls) {
    const parsed = parseJson(body);
    const list = parsed.ok && isJsonObject(parsed.value) ? parsed.value['messages'] : undefined;
    if (!Array.isArray(list)) return null;
    const messages: readonly unknown[] = list;
    const isAssistant = (m: unknown): boolean => isJsonObject(m) && m['role'] === 'assistant';
    let assistant = messages.length - 1;
    while (assistant >= 0 && !isAssistant(messages[assistant])) assistant--;
    const after = messages.slice(assistant + 1);
    return answersByName(
      calls,
      after.flatMap((m: unknown) =>
        isJsonObject(m) && m['role'] === 'tool'
          ? [{ name: m['tool_name'], answer: { content: answerText(m['content']) } }]
          : [],
      ),
    );
  },
};
