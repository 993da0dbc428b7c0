import { integerEnd, integerValue, startsAt, stringValue } from '../provider/compact-json';

const PREFIX = '{"type":"content_block_delta","index":';
const TEXT = ',"delta":{"type":"text_delta","text":"';
const THINKING = ',"delta":{"type":"thinking_delta","thinking":"';
const SUFFIX = '"}}';
/** Digits of an index read here; longer ones (never seen) go through JSON.parse. */
const MAX_DIGITS = 9;

/**
 * The Anthropic stream's most frequent event, a text or thinking delta, read from the
 * compact JSON the API writes without JSON.parse:
 * `{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}` (or
 * `thinking_delta` / `thinking`). JSON.parse of such an event builds two objects for one
 * string, and was a third of the dialect's whole decoding time. Anything else — other key
 * orders, whitespace, other delta types — is declined, and the dialect
 * parses the event as usual, so what is read here is exactly what JSON.parse would give.
 * One reader per decoder: `read` overwrites the fields, so nothing is allocated per event
 * but the text.
 */
export class CompactTextDelta {
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare index: number;
  declare thinking: boolean;
  declare text: string;

  /** Whether `data` is such a delta; when it is, its index, kind and text are in the fields. */
  read(data: string): boolean {
    if (!startsAt(data, PREFIX, 0)) return false;
    const digits = integerEnd(data, PREFIX.length, MAX_DIGITS);
    if (digits === -1) return false;
    let at = digits;
    let thinking: boolean;
    if (startsAt(data, TEXT, at)) {
      thinking = false;
      at += TEXT.length;
    } else if (startsAt(data, THINKING, at)) {
      thinking = true;
      at += THINKING.length;
    } else return false;
    const end = data.length - SUFFIX.length;
    if (end < at || !startsAt(data, SUFFIX, end)) return false;
    const text = stringValue(data, at, end);
    if (text === undefined) return false;
    this.index = integerValue(data, PREFIX.length, digits);
    this.thinking = thinking;
    this.text = text;
    return true;
  }
}
