/**
 * `text` as a string of its own. V8 represents a slice of a long string as a view that keeps
 * the whole original alive: a frame's data is cut from the text of a whole decoded network
 * chunk, and anything that keeps the data (a block's content, a stored envelope) would keep
 * every chunk's text alive with it. Slicing a concatenation makes V8 copy it first, so the
 * result shares no memory with `text`'s original; in other engines this is merely a copy.
 */
export function detachString(text: string): string {
  return text.length === 0 ? text : ` ${text}`.slice(1);
}
