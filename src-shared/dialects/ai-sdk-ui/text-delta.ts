import { startsAt, stringEnd, stringValue } from '../provider/compact-json';

const TEXT = '{"type":"text-delta","id":"';
const REASONING = '{"type":"reasoning-delta","id":"';
const DELTA = ',"delta":"';
const SUFFIX = '"}';

/**
 * The UI message stream's most frequent chunk, a text or reasoning delta, read from the compact
 * JSON the SDK writes without JSON.parse: `{"type":"text-delta","id":"…","delta":"…"}` (or
 * `reasoning-delta`). Anything else (other key orders, whitespace, more fields such as
 * providerMetadata) is declined and parsed as usual, so what is read here is exactly what
 * JSON.parse would give. One reader per decoder: `read` overwrites the fields.
 */
export class TextDeltaReader {
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare kind: 'text' | 'reasoning';
  declare id: string;
  declare delta: string;

  /** Whether `data` is such a delta; when it is, its kind, id and text are in the fields. */
  read(data: string): boolean {
    let at: number;
    let kind: 'text' | 'reasoning';
    if (startsAt(data, TEXT, 0)) {
      kind = 'text';
      at = TEXT.length;
    } else if (startsAt(data, REASONING, 0)) {
      kind = 'reasoning';
      at = REASONING.length;
    } else return false;
    const idEnd = stringEnd(data, at);
    if (idEnd === -1 || !startsAt(data, DELTA, idEnd + 1)) return false;
    const start = idEnd + 1 + DELTA.length;
    const end = data.length - SUFFIX.length;
    if (end < start || !startsAt(data, SUFFIX, end)) return false;
    const id = stringValue(data, at, idEnd);
    const delta = stringValue(data, start, end);
    if (id === undefined || delta === undefined) return false;
    this.kind = kind;
    this.id = id;
    this.delta = delta;
    return true;
  }
}
