/**
 * Bytes → lines, for the SSE framer. Works on bytes, not text: CR and LF are ASCII and
 * never occur inside a multi-byte UTF-8 sequence, so cutting lines before decoding is safe
 * and lets every line keep its absolute byte offsets.
 *
 * Line endings are LF, CR and CRLF (WHATWG "interpreting an event stream"). A CR that is
 * the last byte of a chunk is held back until the next chunk shows whether an LF follows:
 * the pair is one line ending, so the line is reported once and its end offset does not
 * depend on where the network cut the stream.
 *
 * Each push handles one *region*: the bytes from the start of the first unfinished line to
 * the end of the chunk's last complete line. The bytes of a line cut across chunks are
 * copied into one growing buffer (a caller may reuse its chunk buffer after `push`), and
 * the rest of the region is appended there when its end arrives, so a long line costs
 * linear time and a region is always contiguous.
 *
 * A region is decoded with one TextDecoder call (a call per line costs more than the rest
 * of the framer together), and lines are found in the text, then in the bytes: every CR and
 * LF byte decodes to exactly one CR or LF character, in the same order, even around invalid
 * UTF-8 (a replaced sequence never swallows an ASCII byte), so the k-th line ending of the
 * bytes is the k-th line ending of the text. A region that decodes to as many characters as
 * it has bytes maps byte i to character i and needs no byte search at all.
 */
import { createUtf8Decoder } from '../text/utf8';

const LF = 0x0a;
const CR = 0x0d;
const REPLACEMENT_CHARACTER = '\uFFFD';

/** Tail bytes read one by one before the search for a chunk's last line ending goes native. */
const SHORT_TAIL_BYTES = 256;

/** Above this size the buffer of a finished long line is released rather than reused. */
const KEEP_BUFFER_BYTES = 1 << 20;

/**
 * One complete line. The splitter passes the same object for every line, and `bytes` may be
 * a reused buffer: both are valid only during the `LineSink.line` call.
 */
export interface Line {
  /** `bytes[start, end)`: the content without the line ending (and without the stream's leading BOM). */
  bytes: Uint8Array;
  start: number;
  end: number;
  /** `text.slice(textStart, textEnd)`: the same content decoded (invalid UTF-8 replaced by U+FFFD). */
  text: string;
  textStart: number;
  textEnd: number;
  /**
   * False when the line's region decoded without U+FFFD, so the line holds no invalid UTF-8
   * (checked once per region, not once per field).
   */
  mayHoldInvalidUtf8: boolean;
  /** Absolute offset of `bytes[start]`, and just after the line ending. */
  lineStart: number;
  lineEnd: number;
  /** The network chunk holding the line ending's last byte, and its receive time. */
  lastChunk: number;
  receivedAt: number;
}

export interface LineSink {
  line(line: Line): void;
}

/** A last line with no line ending: per WHATWG it is never interpreted. */
export interface UnterminatedLine {
  bytes: Uint8Array;
  /** Absolute offset of `bytes[0]`. */
  lineStart: number;
}

/**
 * The unterminated last line read as a line after all (the framer's `dispatchUnterminated`):
 * decoded on its own, ending with the stream in its last chunk.
 */
export function unterminatedAsLine(tail: UnterminatedLine, lastChunk: number, receivedAt: number): Line {
  const text = createUtf8Decoder().decode(tail.bytes);
  return {
    bytes: tail.bytes,
    start: 0,
    end: tail.bytes.length,
    text,
    textStart: 0,
    textEnd: text.length,
    mayHoldInvalidUtf8: text.includes(REPLACEMENT_CHARACTER),
    lineStart: tail.lineStart,
    lineEnd: tail.lineStart + tail.bytes.length,
    lastChunk,
    receivedAt,
  };
}

export interface LineSplitter {
  push(chunk: Uint8Array, chunkIndex: number, receivedAt: number): void;
  end(): UnterminatedLine | null;
}

export function createLineSplitter(sink: LineSink): LineSplitter {
  // Regions always end just after a line ending, so a complete region decodes the same with
  // or without stream mode, and a streaming decoder never carries a partial sequence over.
  // Which one is used is only about speed: in Node 20 the one-shot call is several times
  // faster on ASCII and the streaming call about twice as fast on non-ASCII text (see
  // bench/sse-framer.bench.ts). The next region is guessed to look like the last one.
  const asciiDecoder = createUtf8Decoder();
  const textDecoder = createUtf8Decoder();
  const decodeOptions = { stream: true };
  let lastRegionWasAscii = true;

  /** Absolute offset of the next chunk's first byte. */
  let offset = 0;
  /** The unfinished line's bytes (copied), at `held[0, heldLength)`. */
  let held = new Uint8Array(256);
  let heldLength = 0;
  /** Chunk and time of the held bytes' last byte, for a held CR that turns out to end a line. */
  let heldChunk = 0;
  let heldReceivedAt = 0;
  let firstLine = true;
  /** The line being passed to the sink: one object, so splitting allocates nothing per line. */
  const current: Line = {
    bytes: held,
    start: 0,
    end: 0,
    text: '',
    textStart: 0,
    textEnd: 0,
    mayHoldInvalidUtf8: false,
    lineStart: 0,
    lineEnd: 0,
    lastChunk: 0,
    receivedAt: 0,
  };

  function hold(chunk: Uint8Array, from: number, to: number, chunkIndex: number, receivedAt: number): void {
    const needed = heldLength + (to - from);
    if (needed > held.length) {
      const grown = new Uint8Array(Math.max(needed, held.length * 2));
      grown.set(held.subarray(0, heldLength));
      held = grown;
    }
    held.set(chunk.subarray(from, to), heldLength);
    heldLength = needed;
    heldChunk = chunkIndex;
    heldReceivedAt = receivedAt;
  }

  function release(): void {
    heldLength = 0;
    if (held.length > KEEP_BUFFER_BYTES) held = new Uint8Array(256);
  }

  /**
   * Split `region`, which ends just after a line ending, into lines. `base` is the absolute
   * offset of `region[0]`; line endings whose last byte is before `heldEnd` were received
   * with the held bytes, the others with the current chunk.
   */
  function splitRegion(
    region: Uint8Array,
    base: number,
    heldEnd: number,
    chunkIndex: number,
    receivedAt: number,
  ): void {
    const regionEnd = region.length;
    const text = looksAscii(region, heldEnd, lastRegionWasAscii)
      ? asciiDecoder.decode(region)
      : textDecoder.decode(region, decodeOptions);
    const oneToOne = text.length === regionEnd;
    lastRegionWasAscii = oneToOne;
    current.text = text;
    current.bytes = region;
    current.mayHoldInvalidUtf8 = text.includes(REPLACEMENT_CHARACTER);
    let pos = 0;
    let textPos = 0;
    // Next LF and CR in the text at or after `textPos`; each is searched again only once
    // passed, so the scans over one region stay linear. Line endings are searched in the
    // text, not the bytes: a string search is several times faster than a byte search.
    // Whether there is any CR is asked with `includes`: in Node 20 an `indexOf` here that
    // finds nothing in a long two-byte text took up to 40 times as long (bench/sse-framer).
    let textLf = text.indexOf('\n');
    let textCr = text.includes('\r') ? text.indexOf('\r') : -1;
    while (pos < regionEnd) {
      if (textLf !== -1 && textLf < textPos) textLf = text.indexOf('\n', textPos);
      if (textCr !== -1 && textCr < textPos) textCr = text.indexOf('\r', textPos);
      const isLf = textCr === -1 || (textLf !== -1 && textLf < textCr);
      const textEol = isLf ? textLf : textCr;
      // Every character comes from at least one byte, so the line ending's byte is at least
      // as far from the line's first byte as its character is from the line's first
      // character: only the line's extra bytes (those of multi-byte characters) are searched.
      let eol = pos + (textEol - textPos);
      if (!oneToOne) {
        const ending = isLf ? LF : CR;
        while (region[eol] !== ending) eol++;
      }
      // A CR ending the region is never followed by an LF (see `push`): it ends its line.
      const eolLength = !isLf && text.charCodeAt(textEol + 1) === LF ? 2 : 1;
      const next = eol + eolLength;
      const fromHeld = next - 1 < heldEnd;
      current.start = pos;
      current.end = eol;
      current.textStart = textPos;
      current.textEnd = textEol;
      current.lineStart = base + pos;
      current.lineEnd = base + next;
      current.lastChunk = fromHeld ? heldChunk : chunkIndex;
      current.receivedAt = fromHeld ? heldReceivedAt : receivedAt;
      emit(current);
      pos = next;
      textPos = textEol + eolLength;
    }
  }

  function emit(line: Line): void {
    if (firstLine) {
      firstLine = false;
      if (leadingBomLength(line.bytes, line.start, line.end) > 0) {
        line.start += 3;
        line.lineStart += 3;
        line.textStart += 1; // U+FEFF is one UTF-16 unit
      }
    }
    sink.line(line);
  }

  function push(chunk: Uint8Array, chunkIndex: number, receivedAt: number): void {
    const length = chunk.length;
    if (length === 0) return;
    const chunkStart = offset;
    offset += length;
    const heldEndsWithCr = heldLength > 0 && held[heldLength - 1] === CR;
    const completeEnd = completeLinesEnd(chunk);
    if (completeEnd === 0 && !heldEndsWithCr) {
      hold(chunk, 0, length, chunkIndex, receivedAt);
      return;
    }
    if (heldLength === 0) {
      splitRegion(
        completeEnd === length ? chunk : chunk.subarray(0, completeEnd),
        chunkStart,
        0,
        chunkIndex,
        receivedAt,
      );
    } else {
      // A held CR is complete now: the next byte is known. If it is an LF, `completeEnd`
      // covers it and the pair is read as one CRLF.
      const heldEnd = heldLength;
      hold(chunk, 0, completeEnd, heldChunk, heldReceivedAt);
      splitRegion(held.subarray(0, heldLength), chunkStart - heldEnd, heldEnd, chunkIndex, receivedAt);
      release();
    }
    if (completeEnd < length) hold(chunk, completeEnd, length, chunkIndex, receivedAt);
  }

  function end(): UnterminatedLine | null {
    if (heldLength === 0) return null;
    if (held[heldLength - 1] === CR) {
      // A CR as the stream's last byte ends its line.
      splitRegion(held.subarray(0, heldLength), offset - heldLength, heldLength, heldChunk, heldReceivedAt);
      release();
      return null;
    }
    const bomLength = firstLine ? leadingBomLength(held, 0, heldLength) : 0;
    firstLine = false;
    const tail = { bytes: held.slice(bomLength, heldLength), lineStart: offset - heldLength + bomLength };
    release();
    return tail;
  }

  return { push, end };
}

/**
 * Just after the chunk's last complete line (0 when no line ends in it): after its last line
 * ending, except that a CR as the chunk's last byte might be the first half of a CRLF, so
 * its line waits for the next chunk. The tail after the last line ending is usually short:
 * a loop reads it, since a TypedArray's lastIndexOf costs more per call than the loop per
 * byte; past SHORT_TAIL_BYTES (a line longer than the chunk) lastIndexOf is the faster.
 */
function completeLinesEnd(chunk: Uint8Array): number {
  let i = chunk.length - 1;
  if (chunk[i] === CR) i--;
  const stop = Math.max(0, i - SHORT_TAIL_BYTES);
  for (; i >= stop; i--) {
    const byte = chunk[i];
    if (byte === LF || byte === CR) return i + 1;
  }
  return i < 0 ? 0 : Math.max(chunk.lastIndexOf(LF, i), chunk.lastIndexOf(CR, i)) + 1;
}

/** From this length a line held across chunks chooses its region's decoder by a sample of its bytes. */
const SAMPLED_LINE_BYTES = 4096;
const SAMPLE_BYTES = 64;
const SAMPLES = 5;

/**
 * Whether `region` is probably ASCII, which decides its decoder. A region is guessed to be
 * like the previous one (`previousWasAscii`), unless most of it is one long line held across
 * chunks (its first `heldBytes`): such a line (a tool payload, a message history) often
 * differs from the deltas around it, so its bytes are sampled, 64 at five evenly spaced
 * places, all ASCII. A wrong guess costs time only (up to 2× for the decode), never a
 * different text.
 */
function looksAscii(region: Uint8Array, heldBytes: number, previousWasAscii: boolean): boolean {
  if (heldBytes < SAMPLED_LINE_BYTES || heldBytes * 2 < region.length) return previousWasAscii;
  const step = Math.floor((heldBytes - SAMPLE_BYTES) / (SAMPLES - 1));
  for (let sample = 0; sample < SAMPLES; sample++) {
    const start = sample * step;
    for (let i = start; i < start + SAMPLE_BYTES; i++) if ((region[i] as number) > 0x7f) return false;
  }
  return true;
}

/** 3 when `bytes[start, end)` begins with the UTF-8 BOM EF BB BF, else 0. */
function leadingBomLength(bytes: Uint8Array, start: number, end: number): number {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? 3 : 0;
}
