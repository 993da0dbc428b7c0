/**
 * Parsed JSON values: type checks, parsing with the parser's reason, comparison independent
 * of key order, and short descriptions for diagnostic messages.
 */
import { stringifyJson } from './tree';

export { jsonEqual } from './tree';

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a parsed value: "null", "array", "object", "string", "number", "boolean". */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const DESCRIBE_CHARS = 80;

/** "number 5", "null", "object {\"a\":1}": the JSON type and a preview of the value. */
export function describeValue(value: unknown): string {
  const kind = jsonKind(value);
  if (kind === 'null') return 'null';
  const json = stringifyJson(value) ?? String(value);
  return `${kind} ${json.length > DESCRIBE_CHARS ? `${json.slice(0, DESCRIBE_CHARS)}…` : json}`;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON.parse without throwing: the value, or the parser's reason. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** `parseJson` of a reassembled payload, where empty text gets a reason of its own. */
export function parseJsonPayload(text: string): JsonParse {
  return text.trim() === '' ? { ok: false, error: 'the payload is empty' } : parseJson(text);
}

/** `text` parsed when it is a JSON object, else undefined. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const parsed = parseJson(text);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** The message of a thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Pretty JSON with object keys sorted, so two equal values always print the same text. */
export function canonicalJson(value: unknown): string {
  return stringifyJson(value, { indent: 2, sortKeys: true }) ?? 'undefined';
}
