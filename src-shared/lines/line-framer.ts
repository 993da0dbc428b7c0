/**
 * The framer of line-framed wires (the AI SDK's v4 data stream: one `CODE:JSON` part per
 * line, no SSE fields; NDJSON, one JSON value per line): network chunks in, one frame per
 * non-blank line out, with the same absolute byte offsets, chunk spans and receive times as
 * the SSE framer's frames, so the timeline, raw bytes and findings work on them unchanged.
 *
 * Lines are split by the SSE framer's line splitter (LF, CR and CRLF; a CRLF cut between two
 * chunks is one line ending; a leading BOM is skipped). Frames tile the stream as SSE frames
 * do: a frame starts just after the previous frame's line ending (0 for the first) and ends
 * just after its own, so blank lines belong to the frame after them.
 *
 * A last line without a line ending is a frame when `isComplete` says its text is whole (a
 * capture saved without a final newline); otherwise the stream was cut inside it: its bytes
 * are reported (`stream.unterminated-line`) and the summary says the stream ended inside an
 * event.
 */
import type { DiagnosticInit } from '../diagnostics/types';
import { createLineSplitter, type Line } from '../sse/line-splitter';
import { dispatchCounted } from '../sse/data-bytes';
import type { Frame, FramerCallbacks, FramerSummary, SseFramer } from '../sse/types';
import { findInvalidUtf8, hexBytes } from '../sse/utf8-errors';
import { previewBytes } from '../text/preview';
import { createUtf8Decoder } from '../text/utf8';

export interface LineFramerOptions {
  /** Whether a last line with no line ending holds a whole event (decoded) or was cut (reported). */
  isComplete: (line: string) => boolean;
}

const REPLACEMENT_CHARACTER = '\uFFFD';

export function createLineFramer(
  callbacks: Pick<FramerCallbacks, 'onFrame' | 'onDiagnostic'>,
  options: LineFramerOptions,
): SseFramer {
  const { onFrame, onDiagnostic } = callbacks;
  let totalBytes = 0;
  let chunkCount = 0;
  let lastReceivedAt = 0;
  let seq = 0;
  let summary: FramerSummary | null = null;
  /** Where the next frame starts: just after the last dispatched line's ending. */
  let tileStart = 0;
  /** Chunk holding byte `tileStart`; -1 until a chunk holding it has been pushed. */
  let tileChunk = -1;

  const splitter = createLineSplitter({ line });

  function line(l: Line): void {
    if (l.start === l.end) return;
    const data = l.text.slice(l.textStart, l.textEnd);
    const invalid = l.mayHoldInvalidUtf8 && data.includes(REPLACEMENT_CHARACTER) ? badUtf8(l) : undefined;
    dispatch(data, l.end - l.start, l.lineEnd, l.lastChunk, l.receivedAt, invalid, !l.mayHoldInvalidUtf8);
  }

  /** The first invalid UTF-8 sequence of the line, reported with the frame. */
  function badUtf8(l: Line): DiagnosticInit | undefined {
    const bad = findInvalidUtf8(l.bytes, l.start, l.end);
    const first = bad[0];
    if (!first) return undefined; // U+FFFD was in the stream, correctly encoded
    const base = l.lineStart - l.start;
    const more = bad.length > 1 ? `; ${bad.length} invalid sequences in this line` : '';
    return {
      rule: 'sse.invalid-utf8',
      message: `Invalid UTF-8 (${hexBytes(l.bytes, first.start, first.end)}) at byte ${base + first.start} in a line, replaced by U+FFFD${more}.`,
      at: { byteStart: base + first.start, byteEnd: base + first.end },
    };
  }

  function dispatch(
    data: string,
    bytes: number,
    lineEnd: number,
    lastChunk: number,
    receivedAt: number,
    invalid: DiagnosticInit | undefined,
    /** The line's bytes are valid UTF-8, so `bytes` are the data's (data-bytes.ts). */
    wellFormed: boolean,
  ): void {
    const frame: Frame = {
      seq: seq++,
      byteStart: tileStart,
      byteEnd: lineEnd,
      chunkFirst: tileChunk,
      chunkLast: lastChunk,
      receivedAt,
      event: '',
      data,
      id: '',
      dataLines: 1,
      maxDataLineBytes: bytes,
    };
    tileStart = lineEnd;
    // The next frame starts in this chunk unless the line ended exactly at its end.
    tileChunk = lineEnd < totalBytes ? chunkCount - 1 : -1;
    if (invalid) onDiagnostic({ ...invalid, at: { ...invalid.at, frame: frame.seq } });
    dispatchCounted(frame, wellFormed ? bytes : undefined, onFrame);
  }

  /** The last line, which has no line ending: a frame when whole, else a cut reported. True when cut. */
  function lastLine(tail: { bytes: Uint8Array; lineStart: number } | null): boolean {
    if (tail === null || tail.bytes.length === 0) return false;
    const text = createUtf8Decoder().decode(tail.bytes);
    if (options.isComplete(text)) {
      dispatch(text, tail.bytes.length, totalBytes, chunkCount - 1, lastReceivedAt, undefined, false);
      return false;
    }
    onDiagnostic({
      rule: 'stream.unterminated-line',
      message: `The stream ended inside a line (no line ending, and what it holds is not a whole event); ${tail.bytes.length} bytes lost: ${previewBytes(tail.bytes, 0, tail.bytes.length)}.`,
      at: { byteStart: tail.lineStart, byteEnd: totalBytes },
    });
    return true;
  }

  return {
    push(chunk, receivedAt = 0) {
      if (summary) throw new Error('LineFramer.push() called after end()');
      lastReceivedAt = receivedAt;
      const index = chunkCount++;
      totalBytes += chunk.length;
      if (tileChunk === -1 && chunk.length > 0) tileChunk = index;
      splitter.push(chunk, index, receivedAt);
    },
    end() {
      if (summary) return summary;
      const endedInsideEvent = lastLine(splitter.end());
      summary = { frames: seq, bytes: totalBytes, chunks: chunkCount, lastEventId: '', retry: null, endedInsideEvent };
      return summary;
    },
  };
}
