/**
 * The incremental SSE framer: network chunks in, WHATWG events out, with absolute byte
 * offsets and a diagnostic for everything an EventSource would silently drop.
 *
 * Interpretation follows the HTML Standard, "interpreting an event stream", exactly:
 * LF / CR / CRLF line endings, one leading BOM, `:` comments, fields with and without a
 * colon, one leading space of the value stripped, `data` lines joined with LF, the event
 * type reset after every dispatch, `id` with NUL ignored, `retry` only when all ASCII
 * digits, dispatch on a blank line only when the data buffer is not empty, and the last
 * unterminated event discarded at the end of the stream. The one departure is opt-in
 * (`dispatchUnterminated`, the session decoder's): a saved capture often ends right after its
 * last `data:` line, which SDKs read and an EventSource drops; with it, that event is
 * dispatched when its data is complete, and flagged.
 *
 * Where things are:
 * - Frames tile the stream. `byteStart` is the first byte after the previous dispatch's
 *   blank line (0 for the first frame, counting a BOM), `byteEnd` is just after the line
 *   ending of the blank line that dispatched it. Comments, ignored lines and extra blank
 *   lines between two events therefore belong to the later frame, and any byte offset
 *   before the last dispatch falls in exactly one frame.
 * - Line diagnostics (`sse.ignored-line`, `sse.unknown-field`, `sse.id-with-nul`,
 *   `sse.invalid-retry`, `sse.invalid-utf8` outside `data`) are reported as soon as the line
 *   is complete, located by the bytes of the line content (without its line ending).
 * - Diagnostics about a frame's data (`sse.oversize-line`, `sse.invalid-utf8` in a `data`
 *   value, `sse.multi-line-data`) carry the frame's `seq` and are reported just before the
 *   frame itself; if the event is never dispatched they come without a frame, at `end()`.
 * - Events of `id` or `retry` fields alone after the last dispatch are in no frame:
 *   `sse.fields-without-event` points at them at `end()` (before a later frame, they are
 *   its bytes).
 *
 * See docs/diagnostics.md ("SSE framing") for each rule, including the rule that tells an
 * unknown field (`sse.unknown-field`) from payload text lost to a raw line break
 * (`sse.ignored-line`). The framer decides when a finding is due; the wording of those about
 * lines that are no field and about the stream's end is in framer-findings.ts.
 */
import type { DiagnosticInit } from '../diagnostics/types';
import { previewBytes, previewText } from '../text/preview';
import {
  FIELD_DATA,
  FIELD_EVENT,
  FIELD_ID,
  FIELD_RETRY,
  FIELD_UNKNOWN,
  fieldKind,
  indexOfNul,
  isAsciiDigits,
  looksLikeFieldName,
} from './fields';
import {
  earlyDispatchFinding,
  fieldsWithoutEventFinding,
  ignoredLineFinding,
  unknownFieldFinding,
  unterminatedEventFinding,
  unterminatedLastEventFinding,
} from './framer-findings';
import { createLineSplitter, unterminatedAsLine, type Line, type UnterminatedLine } from './line-splitter';
import { dispatchCounted } from './data-bytes';
import type { Frame, FramerCallbacks, FramerOptions, FramerSummary, SseFramer } from './types';
import { findInvalidUtf8, hexBytes } from './utf8-errors';

export const DEFAULT_MAX_DATA_LINE_BYTES = 2048;

const COLON = 0x3a;
const SPACE = 0x20;
const REPLACEMENT_CHARACTER = '\uFFFD';

/** What the previous line was; decides whether an unknown line continues a payload. */
const PREVIOUS_BLANK = 0;
const PREVIOUS_DATA = 1;
const PREVIOUS_FIELD = 2;
const PREVIOUS_IGNORED = 3;
const PREVIOUS_COMMENT = 4;
type PreviousLine =
  | typeof PREVIOUS_BLANK
  | typeof PREVIOUS_DATA
  | typeof PREVIOUS_FIELD
  | typeof PREVIOUS_IGNORED
  | typeof PREVIOUS_COMMENT;

export function createSseFramer(callbacks: FramerCallbacks, options: FramerOptions = {}): SseFramer {
  const { onFrame, onDiagnostic, onRetry } = callbacks;
  const maxDataLineBytes = options.maxDataLineBytes ?? DEFAULT_MAX_DATA_LINE_BYTES;
  const dispatchUnterminated = options.dispatchUnterminated;
  let lastReceivedAt = 0;

  // Stream position.
  let totalBytes = 0;
  let chunkCount = 0;
  let summary: FramerSummary | null = null;

  // WHATWG buffers.
  let data = '';
  let dataLines = 0;
  let eventType = '';
  let idBuffer = '';
  let lastEventId = '';
  let retry: number | null = null;

  // The event being built.
  let longestDataLine = 0;
  /** UTF-8 bytes of `data` (its lines and the LFs joining them), while `dataWellFormed`. */
  let dataBytes = 0;
  /** No data line so far came from a region that decoded with U+FFFD (data-bytes.ts). */
  let dataWellFormed = true;
  let dataDiagnostics: DiagnosticInit[] | null = null;
  /** A field line (known or unknown) since the last blank line: an event is pending. */
  let fieldSinceBlank = false;
  /** Offset of the first line after the last blank line, or -1. */
  let eventStart = -1;
  /**
   * Events of `id`, `retry` and typeless `event` fields alone since the last dispatch, [start,
   * end) (start -1 for none): they dispatch nothing, yet may set what a reconnecting client
   * sends. Before a later frame they are its bytes; left at the end, a finding points at them.
   */
  let fieldsOnlyStart = -1;
  let fieldsOnlyEnd = -1;
  /** An `id` or `retry` field took effect, or an `event` field set no type, since the last blank line. */
  let setSinceBlank = false;

  // Frame tiling.
  let seq = 0;
  let tileStart = 0;
  /** Chunk holding byte `tileStart`; -1 until a chunk holding it has been pushed. */
  let tileChunk = -1;

  let previous: PreviousLine = PREVIOUS_BLANK;
  /** The last dispatched frame while it may still turn out to have been cut early. */
  let cutFrame: Frame | null = null;
  /** Blank lines seen since its dispatch (they dispatched nothing). */
  let cutBlankLines = 0;
  /** The current line's region decoded with U+FFFD somewhere: its values need checking. */
  let mayHoldInvalidUtf8 = false;

  const splitter = createLineSplitter({ line });

  function line(l: Line): void {
    const { bytes, start, end, lineStart } = l;
    if (start === end) {
      blankLine(l.lineEnd, l.lastChunk, l.receivedAt);
      return;
    }
    if (eventStart < 0) eventStart = lineStart;
    mayHoldInvalidUtf8 = l.mayHoldInvalidUtf8;
    if (bytes[start] === COLON) {
      previous = PREVIOUS_COMMENT;
      cutFrame = null;
      return;
    }
    let nameEnd = start;
    while (nameEnd < end && bytes[nameEnd] !== COLON) nameEnd++;
    let valueStart = nameEnd < end ? nameEnd + 1 : end;
    if (valueStart < end && bytes[valueStart] === SPACE) valueStart++;
    const kind = fieldKind(bytes, start, nameEnd);
    // A known field name, its colon and the space are ASCII: one character per byte.
    const valueText = kind === FIELD_UNKNOWN ? '' : l.text.slice(l.textStart + (valueStart - start), l.textEnd);
    if (kind === FIELD_DATA) {
      dataField(bytes, valueStart, end, lineStart - start, valueText);
      previous = PREVIOUS_DATA;
    } else if (kind === FIELD_EVENT) {
      eventType = checkValue(valueText, bytes, valueStart, end, lineStart - start, 'event', false);
      if (eventType === '') setSinceBlank = true; // `event`, `event:`: at the end, like id and retry alone
      previous = PREVIOUS_FIELD;
    } else if (kind === FIELD_ID) {
      idField(bytes, valueStart, end, lineStart - start, valueText);
      previous = PREVIOUS_FIELD;
    } else if (kind === FIELD_RETRY) {
      retryField(bytes, start, valueStart, end, lineStart - start);
      previous = PREVIOUS_FIELD;
    } else {
      unknownLine(bytes, start, nameEnd, end, lineStart);
      return;
    }
    fieldSinceBlank = true;
    cutFrame = null;
  }

  /** `base` maps an index into `bytes` to an absolute offset: offset = base + index. */
  function dataField(bytes: Uint8Array, valueStart: number, end: number, base: number, valueText: string): void {
    const value = checkValue(valueText, bytes, valueStart, end, base, 'data', true);
    data = dataLines === 0 ? value : `${data}\n${value}`;
    const length = end - valueStart;
    dataBytes += dataLines === 0 ? length : length + 1;
    if (mayHoldInvalidUtf8) dataWellFormed = false;
    dataLines++;
    if (length > longestDataLine) longestDataLine = length;
    if (length > maxDataLineBytes) {
      deferDataDiagnostic({
        rule: 'sse.oversize-line',
        message: `data: line of ${length} bytes exceeds the ${maxDataLineBytes}-byte budget by ${length - maxDataLineBytes} bytes.`,
        at: { byteStart: base + valueStart, byteEnd: base + end },
      });
    }
  }

  function idField(bytes: Uint8Array, valueStart: number, end: number, base: number, valueText: string): void {
    const nul = indexOfNul(bytes, valueStart, end);
    if (nul >= 0) {
      onDiagnostic({
        rule: 'sse.id-with-nul',
        message: `id field ${previewBytes(bytes, valueStart, end)} contains NUL at byte ${base + nul} and was ignored; the last event ID stays ${JSON.stringify(idBuffer)}.`,
        at: { byteStart: base + valueStart, byteEnd: base + end },
      });
      return;
    }
    idBuffer = checkValue(valueText, bytes, valueStart, end, base, 'id', false);
    setSinceBlank = true;
  }

  function retryField(bytes: Uint8Array, start: number, valueStart: number, end: number, base: number): void {
    if (!isAsciiDigits(bytes, valueStart, end)) {
      onDiagnostic({
        rule: 'sse.invalid-retry',
        message: `retry value ${previewBytes(bytes, valueStart, end)} is not all ASCII digits and was ignored${retry === null ? '' : `; the reconnection time stays ${retry} ms`}.`,
        at: { byteStart: base + start, byteEnd: base + end },
      });
      return;
    }
    let ms = 0;
    for (let i = valueStart; i < end; i++) ms = ms * 10 + ((bytes[i] as number) - 0x30);
    retry = ms;
    setSinceBlank = true;
    onRetry?.(ms);
  }

  /**
   * A line whose field name SSE does not define. It is `sse.ignored-line` (payload text
   * lost to a raw line break) when it has no colon, when its name cannot be a field name,
   * or when it directly follows a `data` line or another ignored line; otherwise it is
   * `sse.unknown-field`.
   */
  function unknownLine(bytes: Uint8Array, start: number, nameEnd: number, end: number, lineStart: number): void {
    const follows = previous === PREVIOUS_DATA ? 'data' : previous === PREVIOUS_IGNORED ? 'ignored' : undefined;
    if (nameEnd < end && looksLikeFieldName(bytes, start, nameEnd) && follows === undefined) {
      onDiagnostic(unknownFieldFinding(bytes, start, nameEnd, end, lineStart));
      fieldSinceBlank = true;
      previous = PREVIOUS_FIELD;
      cutFrame = null;
      return;
    }
    if (cutFrame && (cutBlankLines === 0 || cutFrame.data === ''))
      onDiagnostic(earlyDispatchFinding(cutFrame, cutBlankLines, bytes, start, end, lineStart));
    cutFrame = null;
    onDiagnostic(ignoredLineFinding(bytes, start, nameEnd, end, lineStart, follows));
    previous = PREVIOUS_IGNORED;
  }

  /**
   * A decoded field value, checked: its invalid UTF-8 sequences (already U+FFFD in `text`)
   * get one `sse.invalid-utf8` per value, located at the first bad sequence of
   * `bytes[start, end)`. Data diagnostics wait for the frame.
   */
  function checkValue(
    text: string,
    bytes: Uint8Array,
    start: number,
    end: number,
    base: number,
    field: string,
    isData: boolean,
  ): string {
    if (!mayHoldInvalidUtf8 || !text.includes(REPLACEMENT_CHARACTER)) return text;
    const bad = findInvalidUtf8(bytes, start, end);
    const first = bad[0];
    if (!first) return text; // U+FFFD was in the stream, correctly encoded
    const more = bad.length > 1 ? `; ${bad.length} invalid sequences in this value` : '';
    const diagnostic: DiagnosticInit = {
      rule: 'sse.invalid-utf8',
      message: `Invalid UTF-8 (${hexBytes(bytes, first.start, first.end)}) at byte ${base + first.start} in a ${field} value, replaced by U+FFFD${more}.`,
      at: { byteStart: base + first.start, byteEnd: base + first.end },
    };
    if (isData) deferDataDiagnostic(diagnostic);
    else onDiagnostic(diagnostic);
    return text;
  }

  function deferDataDiagnostic(diagnostic: DiagnosticInit): void {
    (dataDiagnostics ??= []).push(diagnostic);
  }

  function flushDataDiagnostics(frameSeq: number | undefined): void {
    if (!dataDiagnostics) return;
    for (const d of dataDiagnostics)
      onDiagnostic(frameSeq === undefined ? d : { ...d, at: { ...d.at, frame: frameSeq } });
    dataDiagnostics = null;
  }

  function blankLine(lineEnd: number, lastChunk: number, receivedAt: number): void {
    lastEventId = idBuffer;
    previous = PREVIOUS_BLANK;
    const start = eventStart;
    eventStart = -1;
    fieldSinceBlank = false;
    const setFields = setSinceBlank;
    setSinceBlank = false;
    if (dataLines === 0) {
      if (eventType !== '') {
        onDiagnostic({
          rule: 'sse.event-without-data',
          message: `An event of type ${previewText(eventType, 40)} has no data: line; an EventSource dispatches nothing for it, so the event is lost.`,
          at: { byteStart: start >= 0 ? start : tileStart, byteEnd: lineEnd },
        });
      } else if (setFields) {
        if (fieldsOnlyStart < 0) fieldsOnlyStart = start;
        fieldsOnlyEnd = lineEnd;
      }
      eventType = '';
      cutBlankLines++;
      return;
    }
    const frame: Frame = {
      seq: seq++,
      byteStart: tileStart,
      byteEnd: lineEnd,
      chunkFirst: tileChunk,
      chunkLast: lastChunk,
      receivedAt,
      event: eventType,
      data,
      id: idBuffer,
      dataLines,
      maxDataLineBytes: longestDataLine,
    };
    flushDataDiagnostics(frame.seq);
    fieldsOnlyStart = -1;
    if (dataLines > 1) {
      onDiagnostic({
        rule: 'sse.multi-line-data',
        message: `Event ${frame.seq} has ${dataLines} data: lines, joined with LF into one message.`,
        at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
      });
    }
    const counted = dataWellFormed ? dataBytes : undefined;
    data = '';
    dataLines = 0;
    eventType = '';
    longestDataLine = 0;
    dataBytes = 0;
    dataWellFormed = true;
    tileStart = lineEnd;
    // The next frame starts in this chunk unless the blank line ended exactly at its end.
    tileChunk = lineEnd < totalBytes ? chunkCount - 1 : -1;
    cutFrame = frame;
    cutBlankLines = 0;
    dispatchCounted(frame, counted, onFrame);
  }

  /** Reports the event the stream ended inside, if any; true when there was one. */
  function reportUnterminated(tail: UnterminatedLine | null): boolean {
    const pendingTail = tail !== null && tail.bytes.length > 0 && tail.bytes[0] !== COLON;
    if (!fieldSinceBlank && dataLines === 0 && !pendingTail) return false;
    const byteStart = eventStart >= 0 ? eventStart : (tail?.lineStart ?? totalBytes);
    flushDataDiagnostics(undefined);
    onDiagnostic(
      unterminatedEventFinding(
        { dataLines, data, eventType, tail: pendingTail ? tail.bytes : undefined },
        byteStart,
        totalBytes,
      ),
    );
    return true;
  }

  /**
   * With `dispatchUnterminated`: the last line, unterminated, is read as a line, and the
   * event it ends is dispatched when its data is complete. True when it was.
   */
  function dispatchLastEvent(tail: UnterminatedLine | null, accept: (data: string) => boolean): boolean {
    const tailIsLine = tail !== null && tail.bytes.length > 0;
    if (tailIsLine) line(unterminatedAsLine(tail, chunkCount - 1, lastReceivedAt));
    if (dataLines === 0 || !accept(data)) return false;
    onDiagnostic(
      unterminatedLastEventFinding(data, tailIsLine, { frame: seq, byteStart: tileStart, byteEnd: totalBytes }),
    );
    blankLine(totalBytes, chunkCount - 1, lastReceivedAt);
    return true;
  }

  return {
    push(chunk, receivedAt = 0) {
      if (summary) throw new Error('SseFramer.push() called after end()');
      lastReceivedAt = receivedAt;
      const index = chunkCount++;
      totalBytes += chunk.length;
      if (tileChunk === -1 && chunk.length > 0) tileChunk = index;
      splitter.push(chunk, index, receivedAt);
    },
    end() {
      if (summary) return summary;
      const tail = splitter.end();
      const endedInsideEvent = dispatchUnterminated
        ? !dispatchLastEvent(tail, dispatchUnterminated) && reportUnterminated(null)
        : reportUnterminated(tail);
      if (fieldsOnlyStart >= 0)
        onDiagnostic(fieldsWithoutEventFinding(lastEventId, retry, fieldsOnlyStart, fieldsOnlyEnd));
      summary = { frames: seq, bytes: totalBytes, chunks: chunkCount, lastEventId, retry, endedInsideEvent };
      return summary;
    },
  };
}
