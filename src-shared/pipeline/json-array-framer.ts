import type { DiagnosticInit } from '../diagnostics/types';
import { concatBytes } from '../bytes/held-bytes';
import type { Frame, FramerCallbacks, FramerSummary, SseFramer } from '../sse/types';
import { findInvalidUtf8, hexBytes } from '../sse/utf8-errors';
import { createUtf8Decoder } from '../text/utf8';
import {
  BACKSLASH,
  BOM,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  closingQuote,
  endsInOpenEscape,
  isJsonSpace,
} from '../json/json-bytes';

/**
 * Framing of a body that is one JSON array sent element by element, as an API streams its
 * responses when it is not asked for SSE (Gemini's `streamGenerateContent` without `alt=sse`:
 * `[{…}\r\n,\r\n{…}\r\n]`). Each element of the top-level array is one frame, dispatched as
 * soon as its last byte arrives, so a live body shows its events as they come, whatever the
 * network chunking. Several arrays one after another (a capture of several responses) are
 * framed on as one stream.
 *
 * Frames tile the body as SSE frames do: a frame starts right after the previous one (the
 * first at 0) and ends with its element's last byte, so the `[`, the commas and the
 * whitespace before an element belong to its frame; what follows the last element (the
 * closing `]`) belongs to none. A frame's data is the element's text exactly as sent.
 *
 * Only structure is read here (brackets, strings, escapes); whether an element is the JSON
 * its dialect expects is the dialect's to say. Bytes that cannot be part of the array are
 * skipped and reported (`json-array.malformed`); the stream cut inside an element leaves it
 * undispatched (`json-array.cut-element`); an array never closed is `json-array.unclosed`.
 * JSON's structural characters are ASCII and never occur inside a multi-byte UTF-8 sequence,
 * so the scan runs on bytes and its offsets are exact.
 */

const REPLACEMENT_CHARACTER = '\uFFFD';

/** Where the scan is: before the array, between its elements, inside one, after its `]`. */
type Phase = 'before' | 'between' | 'element' | 'after';

export interface JsonArrayFramerOptions {
  /**
   * Start between two elements of an array already open: for framing one frame's bytes again
   * (its leading comma included), where the `[` is in an earlier frame.
   */
  insideArray?: boolean;
}

export function createJsonArrayFramer(callbacks: FramerCallbacks, options: JsonArrayFramerOptions = {}): SseFramer {
  const { onFrame, onDiagnostic } = callbacks;
  const decoder = createUtf8Decoder();
  let phase: Phase = options.insideArray === true ? 'between' : 'before';
  /** Between elements: an element ended and no comma has come since. */
  let awaitingComma = false;
  /** A comma came and no element since (a second comma, or `,]`, is malformed). */
  let commaPending = options.insideArray === true;
  let offset = 0;
  let chunkIndex = -1;
  let receivedAt = 0;
  let seq = 0;
  let tileStart = 0;
  let tileChunk = 0;
  /** The start of a run of bytes that are not part of the array, while it lasts. */
  let junkStart = -1;
  let junkWhy = '';
  /** Where the array being read opened (its `[`). */
  let arrayStart = 0;
  /** The body is top-level objects, not an array (bareObject). */
  let bare = false;
  /** Bytes of a leading byte-order mark seen so far (it may arrive split over chunks). */
  let bomBytes = 0;

  // The element being read.
  let elementStart = 0;
  let elementKind: 'container' | 'string' | 'primitive' = 'container';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pieces: Uint8Array[] = [];

  /** Byte `b` at stream offset `at` continues a byte-order mark at the very start of the body. */
  function isLeadingBom(b: number, at: number): boolean {
    if (phase !== 'before' || at !== bomBytes || at >= BOM.length || b !== BOM[at]) return false;
    bomBytes++;
    return true;
  }

  function malformed(at: number, why: string): void {
    if (junkStart < 0) {
      junkStart = at;
      junkWhy = why;
    }
  }

  /** A run of skipped bytes ends (structure resumes, or the stream ends): one finding for it. */
  function endJunk(at: number): void {
    if (junkStart < 0) return;
    onDiagnostic({
      rule: 'json-array.malformed',
      message: `Bytes ${junkStart}–${at} of the JSON array body are not JSON array structure (${junkWhy}); a JSON parser reading the body fails here. They are skipped and stay shown in the raw bytes.`,
      at: { byteStart: junkStart, byteEnd: at },
    });
    junkStart = -1;
  }

  /**
   * A JSON object where the array belongs: a whole response body or one envelope saved
   * pretty-printed, not a stream (leg-framing.ts frames such a body here). Each top-level
   * object is one frame; the first says what the body is.
   */
  function bareObject(at: number): void {
    bare = true;
    if (seq > 0) return;
    onDiagnostic({
      rule: 'json-array.object-body',
      message: `The body is a JSON object over several lines (from byte ${at}), not a stream of events: a whole response body or one event saved pretty-printed. Each top-level object is decoded as one event; nothing says whether a stream it came from ended.`,
      at: { byteStart: at, byteEnd: at + 1 },
    });
  }

  function startElement(i: number, b: number): void {
    endJunk(offset + i);
    if (awaitingComma)
      onDiagnostic({
        rule: 'json-array.malformed',
        message: `Array element ${seq} at byte ${offset + i} follows the previous one without a comma; a JSON parser reading the body fails here. It is decoded on.`,
        at: { byteStart: offset + i, byteEnd: offset + i + 1 },
      });
    phase = 'element';
    awaitingComma = false;
    commaPending = false;
    elementStart = offset + i;
    elementKind = b === OPEN_OBJECT || b === OPEN_ARRAY ? 'container' : b === QUOTE ? 'string' : 'primitive';
    depth = elementKind === 'container' ? 1 : 0;
    inString = elementKind === 'string';
    escaped = false;
    pieces = [];
  }

  /** The element ends just before `end` (an index into `bytes`): its frame is dispatched. */
  function finishElement(bytes: Uint8Array, runStart: number, end: number): void {
    pieces.push(bytes.subarray(runStart, end));
    const elementBytes = pieces.length === 1 ? (pieces[0] as Uint8Array) : concatBytes(pieces);
    pieces = [];
    const data = decoder.decode(elementBytes);
    const byteEnd = offset + end;
    const diagnostics: DiagnosticInit[] = [];
    if (data.includes(REPLACEMENT_CHARACTER)) {
      const bad = findInvalidUtf8(elementBytes, 0, elementBytes.length);
      const first = bad[0];
      if (first)
        diagnostics.push({
          rule: 'sse.invalid-utf8',
          message: `Invalid UTF-8 (${hexBytes(elementBytes, first.start, first.end)}) at byte ${elementStart + first.start} in array element ${seq}, replaced by U+FFFD${bad.length > 1 ? `; ${bad.length} invalid sequences in this element` : ''}.`,
          at: { frame: seq, byteStart: elementStart + first.start, byteEnd: elementStart + first.end },
        });
    }
    const frame: Frame = {
      seq,
      byteStart: tileStart,
      byteEnd,
      chunkFirst: tileChunk,
      chunkLast: chunkIndex,
      receivedAt,
      event: '',
      data,
      id: '',
      dataLines: 1,
      maxDataLineBytes: elementBytes.length,
    };
    seq++;
    tileStart = byteEnd;
    tileChunk = end < bytes.length ? chunkIndex : chunkIndex + 1;
    // A bare object is followed by nothing, or by another one: no comma between them.
    phase = bare ? 'before' : 'between';
    awaitingComma = !bare;
    for (const d of diagnostics) onDiagnostic(d);
    onFrame(frame);
  }

  /** Bytes between elements, before the array or after it: structure only. */
  function outside(b: number, at: number): void {
    if (phase === 'before' || phase === 'after') {
      if (b === OPEN_ARRAY) {
        endJunk(at);
        arrayStart = at;
        phase = 'between';
        awaitingComma = false;
        commaPending = false;
      } else
        malformed(
          at,
          bare
            ? 'data after the object closed'
            : phase === 'before'
              ? 'the body does not start with ['
              : 'data after the array closed',
        );
      return;
    }
    if (b === COMMA) {
      if (awaitingComma) {
        endJunk(at);
        awaitingComma = false;
        commaPending = true;
      } else malformed(at, 'a comma where an element belongs');
    } else if (b === CLOSE_ARRAY) {
      endJunk(at);
      if (commaPending)
        onDiagnostic({
          rule: 'json-array.malformed',
          message: `The array closes at byte ${at} right after a comma; a JSON parser reading the body fails here.`,
          at: { byteStart: at, byteEnd: at + 1 },
        });
      phase = 'after';
      awaitingComma = false;
      commaPending = false;
    } else malformed(at, `${JSON.stringify(String.fromCharCode(b))} where an element, a comma or ] belongs`);
  }

  function scan(bytes: Uint8Array): void {
    /** Where the current element's bytes in this chunk start (an element continued from the previous chunk: 0). */
    let runStart = phase === 'element' ? 0 : -1;
    for (let i = 0; i < bytes.length; i++) {
      if (phase !== 'element') {
        const b = bytes[i] as number;
        if (isJsonSpace(b) || isLeadingBom(b, offset + i)) continue;
        if (phase === 'between' && b !== COMMA && b !== CLOSE_ARRAY && b !== CLOSE_OBJECT) {
          startElement(i, b);
          runStart = i;
        } else if (phase === 'before' && b === OPEN_OBJECT) {
          bareObject(offset + i);
          startElement(i, b);
          runStart = i;
        } else outside(b, offset + i);
        continue;
      }
      if (inString && !escaped) {
        // Inside a string: jump to its closing quote with a native search.
        const end = closingQuote(bytes, i);
        if (end < 0) {
          escaped = endsInOpenEscape(bytes, i);
          break;
        }
        i = end;
      }
      const b = bytes[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (elementKind === 'string') finishElement(bytes, runStart, i + 1);
        }
        continue;
      }
      if (elementKind === 'primitive') {
        if (isJsonSpace(b) || b === COMMA || b === CLOSE_ARRAY) {
          finishElement(bytes, runStart, i);
          i--; // the separator is read again, between elements
        }
        continue;
      }
      if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --depth === 0) finishElement(bytes, runStart, i + 1);
    }
    // Copied: the caller may reuse its chunk's buffer once push returns.
    if (phase === 'element') pieces.push(bytes.slice(runStart < 0 ? 0 : runStart));
  }

  let summary: FramerSummary | null = null;
  return {
    push(chunk, at = 0) {
      if (summary) return;
      chunkIndex++;
      receivedAt = at;
      scan(chunk);
      offset += chunk.length;
    },
    end() {
      if (summary) return summary;
      const cut = phase === 'element';
      if (cut) {
        // A number or literal at the very end is whole only if the array closes after it:
        // without the `]`, it is cut too.
        onDiagnostic({
          rule: 'json-array.cut-element',
          message: `The stream ended inside array element ${seq} (bytes ${elementStart}–${offset}): it never completed, so it is not decoded; its bytes stay shown.`,
          // Where its frame would have been: from the end of the last frame, as an SSE event cut short.
          at: { byteStart: tileStart, byteEnd: offset },
        });
      } else endJunk(offset);
      if (!cut && phase === 'between')
        onDiagnostic({
          rule: 'json-array.unclosed',
          message: `The JSON array that opens at byte ${arrayStart} ends after ${seq} complete element(s) without its closing ]: the connection closed before the body was complete; a JSON parser reading the whole body fails.`,
          at: { byteStart: arrayStart, byteEnd: offset },
        });
      pieces = [];
      summary = {
        frames: seq,
        bytes: offset,
        chunks: chunkIndex + 1,
        lastEventId: '',
        retry: null,
        endedInsideEvent: cut,
      };
      return summary;
    },
  };
}
