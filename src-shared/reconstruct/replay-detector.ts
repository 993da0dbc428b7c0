/**
 * Recognises the upstream retry replay inside one open streamed block (docs/protocols/upstream-protocol.md §2
 * #10): a retried API call streams the block again from its first delta, on the same
 * connection, without closing the first attempt. Nothing on the wire marks it, so the replay
 * is recognised by content: while the block is open, its first attempt arrives again, delta
 * for delta. A replay is confirmed only once it has reproduced the *whole* first attempt, that
 * attempt has at least `MIN_ATTEMPT_CHARS` characters (a few repeated deltas — ".", " the", a
 * repeated list item — are ordinary text), and the next delta goes on with something other
 * than the attempt's first delta: text that starts over a third time repeats itself. An
 * attempt that ends with a line break is whole lines that the text repeats, never a cut.
 *
 * A first attempt that is itself a shorter run of deltas repeated ("ab" "ab" "ab" "ab", or
 * "ha" "!" "ha" "!") is repetitive text, not a cut call: its "replay" is only more of the same, so it
 * is never confirmed (else a block of identical deltas would restart every few characters).
 * A replay that the block's final marker follows at once is confirmed by that marker (the
 * retry streamed exactly the cut attempt). A retry whose new call streams *different* text is
 * indistinguishable from content and is not detected.
 *
 * Memory: the deltas of the open block (references to the strings its content is made of),
 * released when the block closes.
 */
const MIN_ATTEMPT_CHARS = 8;

/** Where in the block a possible replay began; supplied by the caller, returned on confirmation. */
export interface ReplayMark {
  /** Characters of the first attempt (the block's content length before the replay). */
  contentLength: number;
  /** Envelopes of the first attempt. */
  envelopeCount: number;
}

export interface ReplayDetector<M extends ReplayMark> {
  /**
   * Feed the block's next non-empty delta before it is appended; `mark(a, b)` describes the
   * block at that moment and is only called when the delta may start a replay (its arguments
   * are passed along rather than captured: no closure is made per delta). Returns the mark
   * of the replay's first delta once the replay is confirmed (the detector then follows the
   * replay as the new block), else undefined.
   */
  observe<A, B>(delta: string, mark: (a: A, b: B) => M, a: A, b: B): M | undefined;
  /**
   * The block's final marker came: a replay of the whole attempt that it follows at once (no
   * delta after it to decide) is confirmed here. Returns its mark, else undefined.
   */
  end(): M | undefined;
}

interface Candidate<M> {
  start: M;
  /** Deltas of the first attempt, all of which the replay must reproduce. */
  attemptDeltas: number;
  matched: number;
}

export function createReplayDetector<M extends ReplayMark>(): ReplayDetector<M> {
  let deltas: string[] = [];
  let candidate: Candidate<M> | undefined;

  return {
    observe(delta, mark, a, b) {
      if (candidate && candidate.matched === candidate.attemptDeltas) {
        // The whole attempt came again; this delta decides. Starting it a third time is text
        // that repeats itself; anything else continues the replay, which is now the block.
        const { start, attemptDeltas } = candidate;
        candidate = undefined;
        if (delta !== deltas[0]) {
          deltas = deltas.slice(attemptDeltas);
          deltas.push(delta);
          return start;
        }
      } else if (candidate) {
        if (delta === deltas[candidate.matched]) candidate.matched++;
        else candidate = undefined;
      }
      if (!candidate && deltas.length > 0 && delta === deltas[0]) {
        candidate = { start: mark(a, b), attemptDeltas: deltas.length, matched: 1 };
      }
      deltas.push(delta);
      // A candidate that replayed the whole attempt but does not qualify cannot become one later.
      if (
        candidate &&
        candidate.matched === candidate.attemptDeltas &&
        !isCutAttempt(deltas, candidate.attemptDeltas, candidate.start.contentLength)
      ) {
        candidate = undefined;
      }
      return undefined;
    },
    end() {
      const replayed = candidate && candidate.matched === candidate.attemptDeltas ? candidate.start : undefined;
      candidate = undefined;
      return replayed;
    },
  };
}

/**
 * Whether the block's first `length` deltas (`chars` characters), replayed whole, can be an
 * attempt a failed call cut off: long enough, not a shorter run repeated, and not ending at a
 * line break. A call is cut wherever the failure struck, mid-line; an opening that ends with
 * its line and comes again ("import os" "\n" "import os" "\n" …) is text repeating lines.
 */
function isCutAttempt(deltas: readonly string[], length: number, chars: number): boolean {
  return chars >= MIN_ATTEMPT_CHARS && !deltas[length - 1]!.endsWith('\n') && !isRepetition(deltas, length);
}

/**
 * Whether `deltas[0, length)` is a shorter run of deltas repeated whole (a power of a shorter
 * word): its smallest period, from the prefix function (Knuth–Morris–Pratt), divides its
 * length. Linear in `length`; called only when a candidate has replayed a whole attempt.
 */
function isRepetition(deltas: readonly string[], length: number): boolean {
  const border = borderTable(length);
  border[0] = 0;
  for (let i = 1; i < length; i++) {
    let k = border[i - 1] as number;
    while (k > 0 && deltas[i] !== deltas[k]) k = border[k - 1] as number;
    if (deltas[i] === deltas[k]) k++;
    border[i] = k;
  }
  const period = length - (border[length - 1] as number);
  return period < length && length % period === 0;
}

/** Up to this length the prefix function's table is reused (a typed array per check costs more than the check). */
const REUSED_BORDER_LENGTH = 4096;
let reusedBorder = new Int32Array(64);

/** A table of at least `length` entries for the prefix function, whose entries it overwrites in order. */
function borderTable(length: number): Int32Array {
  if (length > REUSED_BORDER_LENGTH) return new Int32Array(length);
  if (length > reusedBorder.length) reusedBorder = new Int32Array(REUSED_BORDER_LENGTH);
  return reusedBorder;
}
