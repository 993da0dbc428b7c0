/**
 * Where to cut replayed bytes so that an SSE reader completes exactly one event: the
 * "dispatch points" of a byte stream. Replay delivers a network chunk in parts at these
 * points when a single step must not deliver more than one event (see sessions/sources/replay-player.ts).
 *
 * An event is dispatched at the line ending of the empty line after it (WHATWG "interpreting
 * an event stream"; line endings are LF, CR and CRLF). The shared line splitter holds a CR
 * that is the last byte it was given until the next byte shows whether an LF follows, so the
 * dispatch point of an empty line ended by CR is one byte past that CR: the LF of a CRLF, or
 * the first byte of the next event. For an empty line ended by LF it is just past the LF.
 *
 * A dispatch point is where an event *may* complete: an empty line after an empty line, or
 * after an event of comments only, completes none. Callers check the decoder's frame count.
 * Only the last two bytes before a position matter, so the search needs no more of the past
 * than a `ByteHistory`, and each call is linear in the bytes it looks at.
 */

const LF = 0x0a;
const CR = 0x0d;
/** Before the first byte of a stream: a line start, like the byte after a line ending. */
const START = -1;

/** The last two bytes delivered before some position of a stream (START when there are fewer). */
export interface ByteHistory {
  readonly last: number;
  readonly beforeLast: number;
}

export const STREAM_START: ByteHistory = { last: START, beforeLast: START };

/** The history after `bytes` were delivered following `history`. */
export function historyAfter(history: ByteHistory, bytes: Uint8Array): ByteHistory {
  const n = bytes.length;
  if (n === 0) return history;
  if (n === 1) return { last: bytes[0] as number, beforeLast: history.last };
  return { last: bytes[n - 1] as number, beforeLast: bytes[n - 2] as number };
}

const isLineStart = (byte: number): boolean => byte === LF || byte === CR || byte === START;

/**
 * The first dispatch point `d` with `from < d <= bytes.length`, in bytes that follow `history`
 * in the stream; -1 when there is none (a CR-ended empty line at the very end waits for the
 * next byte, so its point is beyond these bytes).
 */
export function nextDispatchPoint(bytes: Uint8Array, history: ByteHistory, from = 0): number {
  const at = (i: number): number =>
    i >= 0 ? (bytes[i] as number) : i === -1 ? history.last : i === -2 ? history.beforeLast : START;
  // A CR just before `from` may still be waiting for its next byte: start one byte back.
  for (let i = Math.max(from - 1, -1); i < bytes.length; i++) {
    const byte = at(i);
    let point = -1;
    if (byte === CR && isLineStart(at(i - 1))) point = i + 2;
    else if (byte === LF && (at(i - 1) === CR ? isLineStart(at(i - 2)) : isLineStart(at(i - 1)))) point = i + 1;
    if (point > bytes.length) return -1;
    if (point > from) return point;
  }
  return -1;
}

/** How many of `bytes` to deliver so that at most the first event in them completes. */
export function cutAfterFirstEvent(bytes: Uint8Array, history: ByteHistory): number {
  const first = nextDispatchPoint(bytes, history);
  return first === -1 ? bytes.length : first;
}

/**
 * How many of `bytes` to deliver so that at most one event completes: all of them when they
 * complete at most one, else up to the first completion. A network chunk is only cut when
 * it would otherwise deliver two events at once.
 */
export function cutBeforeSecondEvent(bytes: Uint8Array, history: ByteHistory): number {
  const first = nextDispatchPoint(bytes, history);
  if (first === -1) return bytes.length;
  return nextDispatchPoint(bytes, history, first) === -1 ? bytes.length : first;
}
