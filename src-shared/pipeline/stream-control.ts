import { parseJsonObject } from '../json/values';
import { literalAt, startsAt } from '../json/compact-json';

/**
 * Frames every dialect shares: the `[DONE]` terminator and the router's error frame
 * `{"error": …, "message": …, "traceback": …}` (which has none of the envelope fields).
 * They are recognised before format detection so a stream that fails at once
 * (an error frame as its first event) still decodes.
 */
export type ControlFrame =
  | { kind: 'done' }
  /** `[DONE]` sent as the last data line of another event (no blank line before it); `head`, the data before it. */
  | { kind: 'joined-done'; head: string }
  | { kind: 'error-frame'; error: unknown; message: unknown; traceback: unknown; fields: Record<string, unknown> };

/** The data of an event whose last `data:` line is `[DONE]`, after the lines before it. */
const JOINED_DONE = '\n[DONE]';

/** `dataLines`: how many `data:` lines the event joined (a `[DONE]` line joined to others is told apart only then). */
export function classifyControlFrame(data: string, dataLines = 1): ControlFrame | undefined {
  if (data === '[DONE]') return { kind: 'done' };
  // A client compares the whole data with `[DONE]`, so such an event is one message to it,
  // which is not JSON: the AI SDK's frontend and OpenAI's SDKs fail on it.
  if (dataLines > 1 && data.endsWith(JOINED_DONE))
    return { kind: 'joined-done', head: data.slice(0, -JOINED_DONE.length) };
  // Cheap guards first: error frames are JSON objects with "error" and "traceback" keys and no
  // "type". Every event of the dialects that name a type names it first or (the Anthropic
  // SDK's dumps) last, so the two ends of the data settle those frames without a scan.
  // (`literalAt`, not `startsWith` or `startsAt`: see there; this runs for every frame.) The
  // others (Chat Completions chunks, Gemini responses, Ollama lines…) are searched for the
  // "traceback" key's end first: a search skips to each occurrence of the needle's first
  // character, and `b` is rare in JSON where `"` is everywhere, so `back"` is told in a fifth
  // of the time `"error"` takes (about 30 against 150 ns on a Chat Completions chunk).
  if (
    data.charCodeAt(0) !== 0x7b /* { */ ||
    literalAt(data, '{"type"', 0) ||
    endsWithTypeMember(data) ||
    !data.includes('back"') ||
    !data.includes('"error"')
  )
    return undefined;
  const value = parseJsonObject(data);
  if (!value || !('error' in value) || !('traceback' in value) || 'type' in value) return undefined;
  return {
    kind: 'error-frame',
    error: value['error'],
    message: value['message'],
    traceback: value['traceback'],
    fields: value,
  };
}

/**
 * Whether JSON object text ends with a `"type": "…"` member, which then is a member of the
 * object itself: the closing brace is the data's last character and directly follows the
 * member's string. (Inside a string every quote is escaped, so `,"type":"` is structure.)
 * Invalid JSON may match too; it is no error frame either. Read from the end, so that data
 * ending otherwise (the events of dialects without a `type`, such as Chat Completions
 * chunks) is told in a few characters rather than a scan of the whole text.
 */
function endsWithTypeMember(data: string): boolean {
  const close = data.length - 2;
  if (data.charCodeAt(close + 1) !== 0x7d /* } */ || data.charCodeAt(close) !== 0x22 /* " */) return false;
  // The string's opening quote: its text has no unescaped quote, so it is the last one before.
  const open = data.lastIndexOf('"', close - 1);
  return open >= 8 && startsAt(data, ',"type":"', open - 8);
}
