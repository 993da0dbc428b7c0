import { ANTHROPIC_EVENT_TYPES } from '../dialects/anthropic-raw/detect';
import { isJsonObject, parseJson } from '../json/values';
import { encodeUtf8 } from '../text/utf8';
import { stringifyJson } from '../json/tree';

/**
 * Items of NDJSON / JSON-array files (envelopes, Anthropic events) turned into SSE bytes,
 * so that every import runs through the one shared decoder. Each item becomes one event,
 * `data: <item>\n\n`, which is what the upstream server sends for it; an item that does not
 * decode is still sent as an event so the decoder reports it where it is, with its bytes.
 */

export type ItemShape = 'envelope' | 'anthropic-event' | 'error-frame' | 'other-object';

/** What kind of object an item is; the first item of a file names the file's kind. */
export function itemShape(value: Record<string, unknown>): ItemShape {
  const type = value['type'];
  // An envelope may be of type "error" too; only it has an agent.
  if (typeof type === 'string' && ANTHROPIC_EVENT_TYPES.has(type) && !('agent' in value)) return 'anthropic-event';
  if (typeof type === 'string' && ('agent' in value || ('delta' in value && 'final' in value))) return 'envelope';
  if ('error' in value && 'message' in value) return 'error-frame';
  return 'other-object';
}

export type ConvertedItem =
  /** `payloads`: one SSE message per entry (an array item holding events gives several). */
  | {
      ok: true;
      shape: ItemShape | 'string' | 'unparsed';
      payloads: string[];
      firstObject: Record<string, unknown> | null;
    }
  | { ok: false; reason: string };

/**
 * One item's JSON text → the SSE messages it stands for. An object is sent as written; a
 * string is the message itself (`"[DONE]"`, an XML item); an array holds items (a list of
 * API responses, each a list of events) and is flattened one level. A line copied from a
 * stream that is not JSON (`[DONE]`, an XML item) or an object that does not parse is sent
 * unchanged, for the decoder to read or report; numbers, booleans, null and other text
 * cannot be events.
 */
export function convertItem(text: string): ConvertedItem {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    // Data lines copied from a stream: the terminator, XML items, and objects that do not parse.
    const trimmed = text.trim();
    if (trimmed === '[DONE]' || trimmed.startsWith('{') || trimmed.startsWith('<'))
      return { ok: true, shape: 'unparsed', payloads: [text], firstObject: null };
    return { ok: false, reason: 'not JSON' };
  }
  const value = parsed.value;
  if (isJsonObject(value)) return { ok: true, shape: itemShape(value), payloads: [text], firstObject: value };
  if (typeof value === 'string') return { ok: true, shape: 'string', payloads: [value], firstObject: null };
  if (Array.isArray(value)) {
    const payloads: string[] = [];
    let firstObject: Record<string, unknown> | null = null;
    for (const inner of value) {
      if (isJsonObject(inner)) {
        firstObject ??= inner;
        payloads.push(stringifyJson(inner) ?? '');
      } else if (typeof inner === 'string') payloads.push(inner);
      else return { ok: false, reason: `an array holding ${describe(inner)}` };
    }
    return { ok: true, shape: firstObject ? itemShape(firstObject) : 'string', payloads, firstObject };
  }
  return { ok: false, reason: describe(value) };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * `data: <payload>\n\n`. A payload with line breaks (a string item holding a multi-line XML
 * item) is sent as several `data:` lines, which an SSE reader joins back with LF.
 */
export function payloadToSse(payload: string): Uint8Array {
  const lines = payload.split(/\r\n|\r|\n/);
  let text = '';
  for (const line of lines) text += `data: ${line}\n`;
  return encodeUtf8(`${text}\n`);
}
