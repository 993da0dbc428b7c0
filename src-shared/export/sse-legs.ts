/**
 * A raw SSE capture of a session with several legs (a run and its tool-results
 * continuations). Each leg is a stream of its own, ending with its own `[DONE]`; written one
 * after the other they would read as one stream with everything after the first `[DONE]`
 * flagged. So the capture starts with one SSE comment line naming the legs' sizes in bytes:
 *
 *     : agent-stream-inspector legs 1895 443
 *
 * followed by the legs' bytes, exactly as received. Any SSE reader skips the comment; this
 * inspector reads it back as the legs. A single leg is written as its bytes alone.
 */

const PREFIX = ': agent-stream-inspector legs';

/** Longer than any header this writes (a leg count a session can reach, each size up to 16 digits). */
export const LEG_HEADER_MAX = 64 * 1024;

export function legHeader(sizes: readonly number[]): string {
  return `${PREFIX} ${sizes.join(' ')}\n`;
}

/**
 * The legs' sizes a capture's first line names, and where the first leg starts; null when the
 * first line is not such a header. `head` is the start of the capture.
 */
export function readLegHeader(head: string): { sizes: number[]; bodyOffset: number } | null {
  if (!head.startsWith(`${PREFIX} `)) return null;
  const end = head.indexOf('\n');
  if (end < 0) return null;
  const words = head.slice(PREFIX.length + 1, end).split(' ');
  if (words.length < 2 || !words.every((w) => /^\d{1,16}$/.test(w))) return null;
  // The header is ASCII: its length in characters is its length in bytes.
  return { sizes: words.map(Number), bodyOffset: end + 1 };
}
