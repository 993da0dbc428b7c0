/**
 * The sentinel form of docs/protocols/segments.md: `[[SEG_START {json}]] … [[SEG_END]]`. The
 * header is read character by character: its JSON may itself hold `]]` (`{"a":[[1]]}`), so
 * the end of the header is where the object's braces balance and `]]` follows. The header's
 * `type` is the segment type; every other field is metadata.
 */
export const SENTINEL_START = '[[SEG_START';
export const SENTINEL_END = '[[SEG_END]]';
/** Longest header held back before it is declared invalid and shown as text. */
export const MAX_SENTINEL_HEADER = 8192;

export interface SentinelCandidate {
  text: string;
  /** Index in `text` where the JSON object starts (after the prefix and spaces), -1 before. */
  jsonStart: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** Index just past the object's closing brace, -1 before. */
  jsonEnd: number;
}

export type SentinelStep =
  | { kind: 'more' }
  /** Not a sentinel at all (`[[SEG_STAR` then `x`): the character is not part of it. */
  | { kind: 'not-sentinel' }
  /** A sentinel whose header is broken; the character is part of the shown text. */
  | { kind: 'invalid'; reason: string }
  | { kind: 'done'; type: string; metadata: Record<string, unknown> };

export function newSentinelCandidate(): SentinelCandidate {
  return { text: '[', jsonStart: -1, depth: 0, inString: false, escaped: false, jsonEnd: -1 };
}

/** True once the text is `[[SEG_START` and at least one space: from there a failure is reported. */
export function isSentinelAttempt(s: SentinelCandidate): boolean {
  return s.text.length > SENTINEL_START.length;
}

export function stepSentinel(s: SentinelCandidate, c: string): SentinelStep {
  if (s.text.length < SENTINEL_START.length) {
    if (SENTINEL_START.charAt(s.text.length) !== c) return { kind: 'not-sentinel' };
    s.text += c;
    return { kind: 'more' };
  }
  if (s.text.length === SENTINEL_START.length) {
    if (c !== ' ' && c !== '\t') return { kind: 'not-sentinel' };
    s.text += c;
    return { kind: 'more' };
  }
  s.text += c;
  if (s.text.length > MAX_SENTINEL_HEADER)
    return { kind: 'invalid', reason: `the header is longer than ${MAX_SENTINEL_HEADER} characters without closing` };
  if (s.jsonStart === -1) {
    if (c === ' ' || c === '\t') return { kind: 'more' };
    if (c !== '{')
      return { kind: 'invalid', reason: `the header must be a JSON object, but it starts with ${JSON.stringify(c)}` };
    s.jsonStart = s.text.length - 1;
    s.depth = 1;
    return { kind: 'more' };
  }
  if (s.jsonEnd === -1) {
    if (s.inString) {
      if (s.escaped) s.escaped = false;
      else if (c === '\\') s.escaped = true;
      else if (c === '"') s.inString = false;
    } else if (c === '"') {
      s.inString = true;
    } else if (c === '{' || c === '[') {
      s.depth++;
    } else if (c === '}' || c === ']') {
      s.depth--;
      if (s.depth === 0) s.jsonEnd = s.text.length;
    }
    return { kind: 'more' };
  }
  // After the object: optional spaces, then `]]`.
  const tail = s.text.slice(s.jsonEnd).trimStart();
  if (tail === '') return { kind: 'more' };
  if (tail === ']') return { kind: 'more' };
  if (tail !== ']]') return { kind: 'invalid', reason: 'the JSON header is not followed by "]]"' };
  return readHeader(s.text.slice(s.jsonStart, s.jsonEnd));
}

function readHeader(json: string): SentinelStep {
  let header: unknown;
  try {
    header = JSON.parse(json);
  } catch (error) {
    return { kind: 'invalid', reason: `the header is not valid JSON (${(error as Error).message})` };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return { kind: 'invalid', reason: 'the header is not a JSON object' };
  const { type, ...metadata } = header as Record<string, unknown>;
  if (typeof type !== 'string' || type === '') return { kind: 'invalid', reason: 'the header has no "type" string' };
  return { kind: 'done', type, metadata };
}
