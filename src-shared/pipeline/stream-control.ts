import { parseJsonObject } from '../json/values';

/**
 * Frames every dialect shares: the `[DONE]` terminator and the router's error frame
 * `{"error": …, "message": …, "traceback": …}` (which has none of the envelope fields).
 * They are recognised before format detection so a stream that fails at once
 * (an error frame as its first event) still decodes.
 */
export type ControlFrame =
  | { kind: 'done' }
  | { kind: 'error-frame'; error: unknown; message: unknown; traceback: unknown; fields: Record<string, unknown> };

export function classifyControlFrame(data: string): ControlFrame | undefined {
  if (data === '[DONE]') return { kind: 'done' };
  // Cheap guards first: error frames are JSON objects with an "error" key and no "type" (every
  // event of every dialect names its type first, so that prefix settles nearly all frames).
  if (data.charCodeAt(0) !== 0x7b /* { */ || data.startsWith('{"type"') || !data.includes('"error"')) return undefined;
  const value = parseJsonObject(data);
  if (!value || !('error' in value) || !('traceback' in value) || 'type' in value) return undefined;
  return { kind: 'error-frame', error: value['error'], message: value['message'], traceback: value['traceback'], fields: value };
}
