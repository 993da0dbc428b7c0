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

  /** Whether `data` is such an event; when it is, its type, message id and delta are in the fields. */
  read(data: string): boolean {
    let at: number;
    let type: CompactContent['type'];
    if (startsAt(data, TEXT, 0)) {
      at = TEXT.length;
      type = 'TEXT_MESSAGE_CONTENT';
    } else if (startsAt(data, REASONING, 0)) {
      at = REASONING.length;
      type = 'REASONING_MESSAGE_CONTENT';
    } else return false;
    // A message's deltas come in a row: the id of the last one read is reused, not copied again,
    // so the decoder's lookups by id hash one string instead of a new one per event.
    const last = this.messageId as string | undefined;
    const same = last !== undefined && startsAt(data, last, at) && startsAt(data, DELTA, at + last.length);
    const idEnd = same ? at + last.length : stringEnd(data, at);
    if (idEnd === -1 || !startsAt(data, DELTA, idEnd)) return false;
    const deltaStart = idEnd + DELTA.length;
    const end = data.length - SUFFIX.length;
    if (end < deltaStart || !startsAt(data, SUFFIX, end)) return false;
    const messageId = same ? last : stringValue(data, at, idEnd);
    const delta = stringValue(data, deltaStart, end);
    if (messageId === undefined || delta === undefined) return false;
    this.type = type;
    this.messageId = messageId;
    this.delta = delta;
    return true;
  }
}
