import { detachString } from '../../text/detach';
import { startsAt, stringEnd, stringValue } from '../../json/compact-json';
import { isJsonObject } from '../../json/values';
import { objectField, type WireEvent } from '../provider/event-context';

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= DIGIT_9;

/**
 * Gemini's chunks of one answer differ only in their text and in the numbers of their usage:
 * the candidate, its role and index, the model version and the response id repeat, and
 * `usageMetadata` keeps its members while its token counts grow. After a chunk has been
 * decoded through JSON.parse to one text delta (its only part, with nothing else), the reader
 * learns the text before that part's string (the prefix), the usage object's text, and what
 * comes before and after the usage. A following chunk made of the very same prefix, a JSON
 * string, the same text up to the usage, a usage that differs from the learnt one only in its
 * integers, and the same end, is the same JSON but for that string and those numbers: it is
 * read here, and its usage kept as text (it parses: it is the learnt JSON with other
 * integers), read only when the summary needs it. Anything else is declined and parsed, so
 * what is read is exactly what JSON.parse would give. JSON.parse of such a chunk builds seven
 * objects for one string the decoder needs, and was most of the dialect's time.
 */
export class RecentTextChunk {
  // Declared, not class fields (see ProviderEventContext).
  declare private prefix: string;
  /** From the text's closing quote up to the usage object. */
  declare private head: string;
  /** The learnt usage's text between its digit runs (where each run is, any other integer may be). */
  declare private usageLiterals: string[];
  /** After the usage object, to the end of the chunk. */
  declare private tail: string;
  /** Set by a successful `read`. */
  declare text: string;
  declare usageText: string;

  constructor() {
    this.forget();
  }

  forget(): void {
    this.prefix = '';
  }

  /**
   * `data`, a chunk just decoded to one text delta of `text` and nothing else (usage aside),
   * whose `usageMetadata` is the object `usage`: learnt when its first `"text"` member holds
   * that text and the usage object's text is found after it.
   */
  learn(data: string, text: string): void {
    this.forget();
    const key = data.indexOf('"text":');
    if (key === -1) return;
    let start = key + '"text":'.length;
    if (data.charCodeAt(start) === 0x20) start++;
    if (data.charCodeAt(start) !== 0x22 /* " */) return;
    start++;
    const end = stringEnd(data, start);
    if (end === -1 || stringValue(data, start, end) !== text) return;
    const member = data.indexOf('"usageMetadata":', end);
    if (member === -1 || data.includes('"usageMetadata":', member + 1)) return;
    let usageStart = member + '"usageMetadata":'.length;
    if (data.charCodeAt(usageStart) === 0x20) usageStart++;
    const usageEnd = objectEnd(data, usageStart);
    if (usageEnd === -1) return;
    // Own copies: a slice would keep the whole chunk's text alive while the answer streams.
    this.head = detachString(data.slice(end, usageStart));
    this.usageLiterals = literalsAround(data.slice(usageStart, usageEnd)).map(detachString);
    this.tail = detachString(data.slice(usageEnd));
    this.prefix = detachString(data.slice(0, start));
  }

  /** Whether `data` is the learnt chunk with other text (not empty) and usage numbers; they are then in `text` and `usageText`. */
  read(data: string): boolean {
    const prefix = this.prefix;
    if (prefix === '' || !startsAt(data, prefix, 0)) return false;
    const end = stringEnd(data, prefix.length);
    if (end === -1 || !startsAt(data, this.head, end)) return false;
    const usageStart = end + this.head.length;
    const usageEnd = data.length - this.tail.length;
    if (usageEnd <= usageStart || !startsAt(data, this.tail, usageEnd)) return false;
    if (!sameButIntegers(data, usageStart, usageEnd, this.usageLiterals)) return false;
    const text = stringValue(data, prefix.length, end);
    if (text === undefined || text === '') return false;
    this.text = text;
    this.usageText = data.slice(usageStart, usageEnd);
    return true;
  }
}

/** The text of `json` between its digit runs: `{"a":12,"b":[3]}` → `{"a":`, `,"b":[`, `]}`. */
function literalsAround(json: string): string[] {
  const literals: string[] = [];
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    if (!isDigit(json.charCodeAt(i))) continue;
    literals.push(json.slice(from, i));
    while (i < json.length && isDigit(json.charCodeAt(i))) i++;
    from = i;
  }
  literals.push(json.slice(from));
  return literals;
}

/**
 * Whether `data[start, end)` is the learnt usage with other digits in place of its digit
 * runs: its literals in order (compared natively), each but the last followed by a digit
 * run (no leading zero, which JSON does not allow). The same JSON with other integers.
 */
function sameButIntegers(data: string, start: number, end: number, literals: readonly string[]): boolean {
  let at = start;
  const last = literals.length - 1;
  for (let n = 0; n <= last; n++) {
    const literal = literals[n] as string;
    if (!startsAt(data, literal, at)) return false;
    at += literal.length;
    if (n === last) break;
    const digits = at;
    while (at < end && isDigit(data.charCodeAt(at))) at++;
    if (at === digits || (at - digits > 1 && data.charCodeAt(digits) === DIGIT_0)) return false;
  }
  return at === end;
}

/**
 * The end of the flat-enough JSON object at `at` (just after its `}`), found by counting
 * brackets outside strings; -1 when there is none. It only delimits the usage: its validity
 * is JSON.parse's, which already read the chunk it is learnt from.
 */
function objectEnd(data: string, at: number): number {
  if (data.charCodeAt(at) !== 0x7b /* { */) return -1;
  let depth = 0;
  for (let i = at; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const close = stringEnd(data, i + 1);
      if (close === -1) return -1;
      i = close;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

/** The text of a chunk that decodes to one text delta and nothing else (no URL context result), or undefined. */
export function onlyText(chunk: WireEvent): string | undefined {
  const candidates = chunk['candidates'];
  if (!Array.isArray(candidates) || candidates.length !== 1 || !isJsonObject(chunk['usageMetadata'])) return undefined;
  const candidate: unknown = candidates[0];
  if (!isJsonObject(candidate) || 'finishReason' in candidate || 'urlContextMetadata' in candidate) return undefined;
  if ((candidate['index'] ?? 0) !== 0) return undefined;
  const parts = objectField(candidate, 'content')['parts'];
  const part: unknown = Array.isArray(parts) && parts.length === 1 ? parts[0] : undefined;
  if (!isJsonObject(part) || Object.keys(part).length !== 1) return undefined;
  const text = part['text'];
  return typeof text === 'string' && text !== '' ? text : undefined;
}
