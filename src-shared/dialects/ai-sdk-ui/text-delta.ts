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
 * JSON.parse would give. One reader per decoder: `read` overwrites the fields. (An id compared
 * in place by `idIs` is the same id only when its text has no escape; one with an escape never
 * equals it there, and is read by `id()`.)
 */
export class TextDeltaReader {
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare kind: 'text' | 'reasoning';
  declare delta: string;
  /** The delta's data, and where its id's text is in it (between its quotes). */
  declare private data: string;
  declare private idStart: number;
  declare private idEnd: number;

  /** Whether `data` is such a delta; when it is, its kind and text are in the fields, its id is `id()`. */
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
    const delta = stringValue(data, start, end);
    if (delta === undefined) return false;
    this.kind = kind;
    this.delta = delta;
    this.data = data;
    this.idStart = at;
    this.idEnd = idEnd;
    return true;
  }

  /**
   * Whether the delta's id is `id`, compared in place: most deltas are for the part the last
   * one was for, and a string per delta for its id would be garbage.
   */
  idIs(id: string): boolean {
    return this.idEnd - this.idStart === id.length && this.data.startsWith(id, this.idStart);
  }

  /** The delta's id (undefined when its text is no JSON string: the event is then parsed). */
  id(): string | undefined {
    return stringValue(this.data, this.idStart, this.idEnd);
  }
}
