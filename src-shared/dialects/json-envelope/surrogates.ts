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
 * Escapes only occur inside JSON strings, so a left-to-right scan that skips each escape
 * sequence as a unit (`\\u…` is a backslash followed by the letter u, not an escape) is exact
 * without tracking string boundaries. Linear in the text length.
 */
export function findLoneSurrogateEscapes(text: string): readonly LoneSurrogateEscape[] {
  let i = text.indexOf('\\');
  // Nearly every event has none: nothing is allocated for it.
  if (i === -1) return NONE;
  const found: LoneSurrogateEscape[] = [];
  while (i !== -1) {
    const here = surrogateAt(text, i);
    if (!here) {
      // Any other escape is two characters long (\uXXXX of a non-surrogate is skipped the
      // same way: its hex digits hold no backslash).
      i = text.indexOf('\\', i + 2);
      continue;
    }
    if (here.high && text.charCodeAt(i + 6) === BACKSLASH) {
      const next = surrogateAt(text, i + 6);
      if (next && !next.high) {
        i = text.indexOf('\\', i + 12);
        continue;
      }
    }
    found.push({ index: i, escape: text.slice(i, i + 6) });
    i = text.indexOf('\\', i + 6);
  }
  return found;
}
