import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText, stringifyJson } from '../../json/tree';
import { isJsonObject, parseJson } from '../../json/values';
import type { ProviderEventContext } from './event-context';
import type { ClientToolAnswer } from '../types';
import type { PendingTool } from '../../reconstruct/types';

/**
 * What a continuation that sends the conversation again starts from (Chat Completions,
 * Ollama): the body of the request that paused, which must have a `messages` array, and the
 * assistant message its pause carries. Throws with a message the user can act on when either
 * is missing; `what` says which request the API wants.
 */
export function pausedConversation(
  previousBody: string,
  pause: unknown,
  what: string,
): { body: Record<string, unknown>; messages: unknown[]; message: Record<string, unknown> } {
  const parsed = parseJson(previousBody);
  const body = parsed.ok ? parsed.value : undefined;
  if (!isJsonObject(body) || !Array.isArray(body['messages']))
    throw new Error(
      `The request that paused has no JSON body with a messages array${what}, and this API continues a run by sending the conversation again.`,
    );
  const message = isJsonObject(pause) && isJsonObject(pause['message']) ? pause['message'] : undefined;
  if (!message)
    throw new Error('The pause does not carry the assistant message its continuation sends back; decode it again.');
  return { body, messages: body['messages'] as unknown[], message };
}

/** One entry per answered call (a result message, an output item), in the order the calls came; a call left unanswered has none. */
export function answerEntries(
  calls: readonly PendingTool[],
  answers: readonly ClientToolAnswer[],
  message: (call: PendingTool, answer: ClientToolAnswer) => Record<string, unknown>,
): Record<string, unknown>[] {
  const byId = new Map(answers.map((answer) => [answer.toolUseId, answer]));
  return calls.flatMap((call) => {
    const answer = byId.get(call.toolUseId);
    return answer ? [message(call, answer)] : [];
  });
}

/**
 * The answers a continuation's body carries (ClientToolContinuation.answersIn): what `read`
 * takes for answers from each entry of its `key` array (`messages`, `input`). Null when the
 * body is not a JSON object with that array.
 */
export function answersInEntries(
  text: string,
  key: string,
  read: (entry: Record<string, unknown>) => readonly ClientToolAnswer[],
): ClientToolAnswer[] | null {
  const parsed = parseJson(text);
  const entries = parsed.ok && isJsonObject(parsed.value) ? parsed.value[key] : undefined;
  if (!Array.isArray(entries)) return null;
  return entries.flatMap((entry: unknown) => (isJsonObject(entry) ? read(entry) : []));
}

/**
 * Reads answers that name their call's tool, not its id (Gemini's `functionResponse`s,
 * Ollama's `tool` messages), in the order the calls came: each goes to the first call of its
 * name not answered yet.
 */
export function answersByName(
  calls: readonly PendingTool[],
  named: readonly { name: unknown; answer: Omit<ClientToolAnswer, 'toolUseId'> }[],
): ClientToolAnswer[] {
  const left = [...calls];
  return named.flatMap(({ name, answer }) => {
    const at = left.findIndex((call) => call.name === name);
    if (at < 0) return [];
    const [call] = left.splice(at, 1);
    return [{ ...answer, toolUseId: (call as PendingTool).toolUseId }];
  });
}

/** An answer's text as a continuation sent it: a string as it is, any other value as its JSON. */
export function answerText(value: unknown): string {
  return typeof value === 'string' ? value : (stringifyJson(value ?? null) ?? '');
}

/** A call a pause offers for an answer, as the `awaiting_frontend_tools` payload names it. */
export interface PausedCall {
  tool_use_id: string;
  name: string;
  input: unknown;
}

/**
 * The pause on calls the client runs: an `awaiting_frontend_tools` envelope naming them, with
 * what the dialect's continuation needs beside them (`continuation`: the message to send back,
 * the response to follow), at phase `requires_action`.
 */
export function emitClientPause(
  ctx: ProviderEventContext,
  ids: StreamIds,
  tools: readonly PausedCall[],
  continuation: Record<string, unknown>,
  extras: Record<string, unknown> = {},
): void {
  ctx.emit(
    { type: KIND.awaiting_frontend_tools, final: true, delta: jsonText({ tools, ...continuation }), extras },
    unified('stream.tool_call_status', ids, { phase: 'requires_action' }),
  );
}
