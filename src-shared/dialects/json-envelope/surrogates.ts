/** An unpaired `\uXXXX` surrogate escape found in JSON text. */
export interface LoneSurrogateEscape {
  /** UTF-16 index of the backslash in the JSON text. */
  index: number;
  /** The escape as written, e.g. `\uD83D`. */
  escape: string;
}

const BACKSLASH = 0x5c;
const NONE: readonly LoneSurrogateEscape[] = [];
const LOWER_U = 0x75;

function surrogateAt(text: string, index: number): { code: number; high: boolean } | undefined {
  // `index` points at a backslash; a \u escape needs 4 hex digits after "\u".
  if (text.charCodeAt(index + 1) !== LOWER_U || index + 6 > text.length) return undefined;
  const hex = text.slice(index + 2, index + 6);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
  const code = Number.parseInt(hex, 16);
  if (code < 0xd800 || code > 0xdfff) return undefined;
  return { code, high: code <= 0xdbff };
}

/**
 * Find `\uD800`–`\uDFFF` escapes that do not form a high+low pair. JSON.parse accepts them
 * and yields lone UTF-16 code units, which become U+FFFD (or an encoder error) as soon as the
 * string is encoded to UTF-8, so the text a client shows differs from what was sent.
 *
 * Escapes only occur inside JSON strings, so looking at each `\u` is exact without tracking
 * string boundaries, once `\\u` (an escaped backslash followed by the letter u) is told
 * apart: the backslash before the u starts an escape when the run of backslashes it ends is
 * odd. Only `\u` is searched for, so the many `\"` and `\n` of a payload cost nothing
 * (bench/delta-scans.bench.ts).
 * Linear in the text length.
 */
export function findLoneSurrogateEscapes(text: string): readonly LoneSurrogateEscape[] {
  let i = text.indexOf('\\u');
  // Nearly every event has none: nothing is allocated for it.
  if (i === -1) return NONE;
  let found: LoneSurrogateEscape[] | undefined;
  while (i !== -1) {
    const here = startsEscape(text, i) ? surrogateAt(text, i) : undefined;
    if (!here) {
      i = text.indexOf('\\u', i + 2);
      continue;
    }
    if (here.high && text.charCodeAt(i + 6) === BACKSLASH) {
      const next = surrogateAt(text, i + 6);
      if (next && !next.high) {
        i = text.indexOf('\\u', i + 12);
        continue;
      }
    }
    (found ??= []).push({ index: i, escape: text.slice(i, i + 6) });
    i = text.indexOf('\\u', i + 6);
  }
  return found ?? NONE;
}

/** Whether the backslash at `index` starts an escape: the run of backslashes it ends is odd. */
function startsEscape(text: string, index: number): boolean {
  let run = 1;
  while (index - run >= 0 && text.charCodeAt(index - run) === BACKSLASH) run++;
  return run % 2 === 1;
}
