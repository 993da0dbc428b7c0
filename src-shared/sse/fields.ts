/**
 * SSE field names on bytes, and the rule that tells an unknown field from lost payload text.
 */

export const FIELD_UNKNOWN = 0;
export const FIELD_DATA = 1;
export const FIELD_EVENT = 2;
export const FIELD_ID = 3;
export const FIELD_RETRY = 4;
export type FieldKind =
  typeof FIELD_UNKNOWN | typeof FIELD_DATA | typeof FIELD_EVENT | typeof FIELD_ID | typeof FIELD_RETRY;

/** Which field `bytes[start, nameEnd)` names. Field names are case-sensitive ASCII. */
export function fieldKind(bytes: Uint8Array, start: number, nameEnd: number): FieldKind {
  switch (nameEnd - start) {
    case 4:
      return bytes[start] === 0x64 &&
        bytes[start + 1] === 0x61 &&
        bytes[start + 2] === 0x74 &&
        bytes[start + 3] === 0x61
        ? FIELD_DATA
        : FIELD_UNKNOWN;
    case 5:
      if (
        bytes[start] === 0x65 &&
        bytes[start + 1] === 0x76 &&
        bytes[start + 2] === 0x65 &&
        bytes[start + 3] === 0x6e &&
        bytes[start + 4] === 0x74
      )
        return FIELD_EVENT;
      if (
        bytes[start] === 0x72 &&
        bytes[start + 1] === 0x65 &&
        bytes[start + 2] === 0x74 &&
        bytes[start + 3] === 0x72 &&
        bytes[start + 4] === 0x79
      )
        return FIELD_RETRY;
      return FIELD_UNKNOWN;
    case 2:
      return bytes[start] === 0x69 && bytes[start + 1] === 0x64 ? FIELD_ID : FIELD_UNKNOWN;
    default:
      return FIELD_UNKNOWN;
  }
}

/** Longest name that still reads as a field name rather than a sentence. */
export const MAX_FIELD_NAME_BYTES = 64;

/**
 * Whether `bytes[start, nameEnd)` could be the name of a field some server meant to send:
 * 1 to 64 ASCII letters, digits, `-` or `_`. Text such as `1. Create a file`,
 * `  "files"` or `**Note**` cannot, so a line like that is payload text cut off by a raw
 * line break, not an unknown field.
 */
export function looksLikeFieldName(bytes: Uint8Array, start: number, nameEnd: number): boolean {
  const length = nameEnd - start;
  if (length < 1 || length > MAX_FIELD_NAME_BYTES) return false;
  for (let i = start; i < nameEnd; i++) {
    const b = bytes[i] as number;
    const isLetter = (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
    const isDigit = b >= 0x30 && b <= 0x39;
    if (!isLetter && !isDigit && b !== 0x2d && b !== 0x5f) return false;
  }
  return true;
}

/** Whether `bytes[start, end)` is one or more ASCII digits (a valid `retry` value). */
export function isAsciiDigits(bytes: Uint8Array, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (b < 0x30 || b > 0x39) return false;
  }
  return true;
}

/** Offset of the first NUL byte in `bytes[start, end)`, or -1. */
export function indexOfNul(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (bytes[i] === 0) return i;
  return -1;
}
