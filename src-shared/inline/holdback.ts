/**
 * The holdback rule for text that is still streaming (docs/protocols/segments.md, "Safe Streaming"), applied
 * to a whole live text at render time: a tag can arrive split over several deltas, so the end of
 * a live text may be the first characters of a closing `</content-block-…>`, of an embedded
 * `<chart>` / `<table>` tag, or of a tag of the protocols inside the model's text. Showing them
 * would flash a partial tag that the next delta completes (or turns out not to be a tag at
 * all). While the block is live, such a tail is held back; once the block completes, or the
 * tail can no longer become a watched tag, it is shown. (The inline parser applies the same
 * rule as it reads, to each segment's content: src-shared/inline/markers.ts.)
 */

/** Tag starts whose partial form is held back. */
export const WATCHED_TAG_STARTS: readonly string[] = [
  '</content-block-',
  '<content-block-',
  '<chart',
  '</chart',
  '<table',
  '</table',
];

/** The watched starts plus the opening and closing tags of the inline protocols' tag names. */
export function watchedWithInlineTags(names: readonly string[]): string[] {
  return [...WATCHED_TAG_STARTS, ...names.flatMap((name) => [`<${name}`, `</${name}`])];
}

/**
 * The longest tail held back. A watched tag whose name or attributes run longer than this is
 * shown as it streams: holding back without bound would hide real content behind a stray `<`.
 */
export const MAX_HOLDBACK = 256;

export interface HeldBackText {
  /** What to show now. */
  visible: string;
  /** Characters held back at the end (0 when nothing is). */
  heldBack: number;
}

/** Characters that can continue a tag name or an attribute list (not `>` or `<`). */
function isTagBodyChar(code: number): boolean {
  return code !== 0x3e && code !== 0x3c;
}

/** True when `tail` (starting with `<`, holding no `>`) may still become one of the watched tags. */
export function mayBecomeWatchedTag(tail: string, starts: readonly string[] = WATCHED_TAG_STARTS): boolean {
  for (const start of starts) {
    if (tail.length <= start.length) {
      if (start.startsWith(tail)) return true;
      continue;
    }
    if (!tail.startsWith(start)) continue;
    const rest = tail.slice(start.length);
    // `<chart` must be followed by whitespace, `/` or the end of the name; `<charts` is not a chart tag.
    if (!start.endsWith('-') && !/^[\s/]/.test(rest)) continue;
    let ok = true;
    for (let i = 0; i < rest.length && ok; i++) ok = isTagBodyChar(rest.charCodeAt(i));
    if (ok) return true;
  }
  return false;
}

/**
 * Splits a text into what is shown and what is held back. Only the last `<` within
 * MAX_HOLDBACK characters of the end is considered, so the cost is bounded whatever the length.
 */
export function holdBackPartialTag(
  text: string,
  live: boolean,
  starts: readonly string[] = WATCHED_TAG_STARTS,
): HeldBackText {
  if (!live || text === '') return { visible: text, heldBack: 0 };
  const windowStart = Math.max(0, text.length - MAX_HOLDBACK);
  const inWindow = text.slice(windowStart).lastIndexOf('<');
  if (inWindow < 0) return { visible: text, heldBack: 0 };
  const lt = windowStart + inWindow;
  const tail = text.slice(lt);
  if (tail.includes('>') || !mayBecomeWatchedTag(tail, starts)) return { visible: text, heldBack: 0 };
  return { visible: text.slice(0, lt), heldBack: tail.length };
}
