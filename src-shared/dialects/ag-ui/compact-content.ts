import { detachString } from '../../text/detach';
import { startsAt, stringEnd, stringValue } from '../provider/compact-json';

const TEXT = '{"type":"TEXT_MESSAGE_CONTENT","messageId":"';
const REASONING = '{"type":"REASONING_MESSAGE_CONTENT","messageId":"';
const DELTA = '","delta":"';
const SUFFIX = '"}';

/**
 * AG-UI's most frequent events, a text or reasoning message's content, read from the compact
 * JSON the SDKs write without JSON.parse:
 * `{"type":"TEXT_MESSAGE_CONTENT","messageId":"…","delta":"…"}` (or REASONING_MESSAGE_CONTENT),
 * as the TypeScript SDK's encoder and the Python SDK's (fields in declaration order, nothing
 * null) send it. JSON.parse builds an object of three strings for the one string the decoder
 * needs, and was the largest part of the dialect's decoding time. Anything else — other key
 * orders, whitespace, a timestamp — is declined and the event is parsed as usual, so what is
 * read here is exactly what JSON.parse would give. One reader per decoder: `read` overwrites
 * the fields.
 */
export class CompactContent {
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare type: 'TEXT_MESSAGE_CONTENT' | 'REASONING_MESSAGE_CONTENT';
  declare messageId: string;
  declare delta: string;
  /**
   * Everything before the delta of the last event read (type, message id and the delta's key),
   * as it was written. A message's deltas come in a row: one comparison then covers the whole
   * head and the id is reused, not copied again (the decoder's lookups by id then hash one string).
   */
  private head = '';

  /** Whether `data` is such an event; when it is, its type, message id and delta are in the fields. */
  read(data: string): boolean {
    if (this.head !== '' && startsAt(data, this.head, 0)) {
      const delta = deltaOf(data, this.head.length);
      if (delta === undefined) return false;
      this.delta = delta;
      return true;
    }
    let at: number;
    let type: CompactContent['type'];
    if (startsAt(data, TEXT, 0)) {
      at = TEXT.length;
      type = 'TEXT_MESSAGE_CONTENT';
    } else if (startsAt(data, REASONING, 0)) {
      at = REASONING.length;
      type = 'REASONING_MESSAGE_CONTENT';
    } else return false;
    const idEnd = stringEnd(data, at);
    if (idEnd === -1 || !startsAt(data, DELTA, idEnd)) return false;
    const messageId = stringValue(data, at, idEnd);
    if (messageId === undefined) return false;
    const deltaStart = idEnd + DELTA.length;
    const delta = deltaOf(data, deltaStart);
    if (delta === undefined) return false;
    this.type = type;
    this.messageId = messageId;
    this.delta = delta;
    this.head = detachString(data.slice(0, deltaStart));
    return true;
  }
}

/** The delta string from `start` to the event's closing `"}`, or undefined when the event does not end there. */
function deltaOf(data: string, start: number): string | undefined {
  const end = data.length - SUFFIX.length;
  return end < start || !startsAt(data, SUFFIX, end) ? undefined : stringValue(data, start, end);
}
