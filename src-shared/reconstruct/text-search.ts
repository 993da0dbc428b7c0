/**
 * Search over what the agent said: a block's text is its envelopes' deltas one after the
 * other, so a word the stream split ("The E" + "iffel Tower") is found in the block and lands
 * on every envelope that carries part of it.
 */

export interface TextPiece {
  readonly seq: number;
  /** Length of the envelope's delta in UTF-16 code units (as in the block's text). */
  readonly length: number;
}

/**
 * Seqs of the pieces that carry an occurrence of `needle` in `text` (case-insensitive where
 * lower-casing keeps the text's length, so offsets stay aligned; exact case otherwise).
 * Returns [] when the pieces do not add up to the text (a block whose text is not the plain
 * concatenation of its deltas).
 */
export function piecesMatching(text: string, pieces: readonly TextPiece[], needle: string): number[] {
  if (needle === '' || text.length < needle.length) return [];
  const starts = new Array<number>(pieces.length);
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) {
    starts[i] = offset;
    offset += pieces[i]!.length;
  }
  if (offset !== text.length) return [];
  const lowered = text.toLowerCase();
  const loweredNeedle = needle.toLowerCase();
  const [haystack, wanted] =
    lowered.length === text.length && loweredNeedle.length === needle.length
      ? [lowered, loweredNeedle]
      : [text, needle];
  const hits = new Set<number>();
  for (let at = haystack.indexOf(wanted); at >= 0; at = haystack.indexOf(wanted, at + 1)) {
    const first = pieceAt(starts, at);
    const last = pieceAt(starts, at + wanted.length - 1);
    for (let i = first; i <= last; i++) if (pieces[i]!.length > 0) hits.add(pieces[i]!.seq);
  }
  return [...hits].sort((a, b) => a - b);
}

/** Index of the last piece starting at or before `offset` (binary search over the starts). */
function pieceAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
