/** Small helpers over parsed JSON values and wire text, for checks and diagnostic messages. */

const PREVIEW_CHARS = 80;

/** The first `max` characters of `text` as a JSON string literal (control characters visible). */
export function previewText(text: string, max = PREVIEW_CHARS): string {
  const cut = text.length > max;
  let head = cut ? text.slice(0, max) : text;
  // Never end the preview on half a surrogate pair.
  if (cut && /[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return JSON.stringify(head) + (cut ? `… (${text.length} characters)` : '');
}

export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** "number 5", "null", "object {\"a\":1}" — the JSON type and a preview of the value. */
export function describeValue(value: unknown): string {
  const kind = jsonKind(value);
  if (kind === 'null') return 'null';
  const json = JSON.stringify(value) ?? String(value);
  return `${kind} ${json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}…` : json}`;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
