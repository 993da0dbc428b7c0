import { isJsonObject } from '../../json/values';
import type { SniffedFrame } from '../sniff';

const OPEN_BRACE = 0x7b;

/**
 * Whether a frame is a Chat Completions event, by its own markers: `object:
 * "chat.completion.chunk"`; or, from servers that leave `object` out or empty, a `choices`
 * array whose choices carry a `delta` (or Azure's `prompt_filter_results`, or an `error` object,
 * beside it: OpenRouter sends an error after its HTTP 200 as a chunk `{"id", "choices": [],
 * "error": {code, message}}`); or an error as this API streams it (`event: error` with an
 * `error` object, or data that is `{"error": {message, …}}`, alone or beside a chunk's id,
 * object, created and model). LangGraph's `event: error` names its exception in a string,
 * `{"error": "ValueError", "message": …}`: not this API's. Objects with a `type` (the other
 * providers' events, the agent envelopes) or a `jsonrpc` member are never this dialect, and a
 * Gemini error body (its `error.status`) is not. An error alone names the API only as a leg's
 * first event (`isBareErrorEvent`).
 */
export function isChatCompletionEvent(frame: SniffedFrame): boolean {
  const data = frame.data;
  if (data.charCodeAt(frame.start) !== OPEN_BRACE) return false;
  // Cheap guards first: every claim names one of these members.
  if (!data.includes('"choices"') && !data.includes('"error"')) return false;
  const object = frame.json();
  if (object === undefined || 'type' in object || 'jsonrpc' in object) return false;
  if (frame.event === 'error') return isJsonObject(object['error']);
  if (object['object'] === 'chat.completion.chunk') return true;
  const choices = object['choices'];
  if (Array.isArray(choices))
    return (
      'prompt_filter_results' in object ||
      isJsonObject(object['error']) ||
      choices.some((c) => isJsonObject(c) && isJsonObject(c['delta']))
    );
  return isErrorBody(object);
}

/** Members a chunk has that may come beside an error (DashScope sends `{"error": {…}, "id": "chatcmpl-…"}`). */
const CHUNK_MEMBERS: ReadonlySet<string> = new Set(['error', 'id', 'object', 'created', 'model']);

/** OpenAI's error object, alone or beside a chunk's own members: `{"error": {"message": …, "type": …, "code": …}}`. */
function isErrorBody(object: Record<string, unknown>): boolean {
  const error = object['error'];
  return (
    Object.keys(object).every((key) => CHUNK_MEMBERS.has(key)) &&
    isJsonObject(error) &&
    typeof error['message'] === 'string' &&
    !('status' in error)
  );
}

/**
 * An error frame that carries no chunk (`event: error`, or an error body alone): what any
 * server may send, so it names this API only as a leg's first event (`claimsOnlyFirst`).
 * A llama.cpp or LangGraph stream that ends in an error object stays what it was shown as.
 */
export function isBareErrorEvent(frame: SniffedFrame): boolean {
  const object = frame.json();
  if (object === undefined || 'choices' in object) return false;
  return frame.event === 'error' || isErrorBody(object);
}
