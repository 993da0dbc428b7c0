/**
 * Bytes → LF-terminated lines with absolute byte offsets, for NDJSON files (recordings and
 * imported NDJSON). Works on bytes so that offsets are file offsets and a multi-byte
 * character cut by a read boundary is never split. A line cut across pushes is held
 * (HeldBytes: linear time, the caller may reuse its buffer) until its end. A trailing CR is
 * dropped so CRLF files read the same.
 *
 * A line longer than `maxLineBytes` is not buffered: its bytes are dropped as they come and
 * `onOversize` reports it at its end, so binary garbage without line breaks costs no memory.
 */
import { createHeldBytes } from '../bytes/held-bytes';

const LF = 0x0a;
const CR = 0x0d;

export interface LineCallbacks {
  /**
   * `bytes[start, end)` is the line without its ending; `offset` the file offset of
   * `bytes[start]`, `next` the offset just after its LF; `line` 1-based.
   */
  onLine(bytes: Uint8Array, start: number, end: number, offset: number, line: number, next: number): void;
  onOversize?(offset: number, line: number, length: number): void;
}

export interface UnterminatedTail {
  bytes: Uint8Array;
  offset: number;
  line: number;
}

export interface ByteLineSplitter {
  push(chunk: Uint8Array): void;
  /** The last line when the input did not end with LF (an empty input or final LF gives null). */
  end(): UnterminatedTail | null;
  /** Bytes consumed so far. */
  readonly offset: number;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export function createByteLineSplitter(
  callbacks: LineCallbacks,
  options: { maxLineBytes?: number; startOffset?: number; startLine?: number } = {},
): ByteLineSplitter {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let offset = options.startOffset ?? 0;
  let lineStart = offset;
  let line = options.startLine ?? 1;
  const held = createHeldBytes();
  /** Bytes of the current line when it went over the limit and is being skipped. */
  let oversize = -1;

  const emit = (bytes: Uint8Array, start: number, end: number, next: number): void => {
    const trimmed = end > start && bytes[end - 1] === CR ? end - 1 : end;
    callbacks.onLine(bytes, start, trimmed, lineStart, line, next);
  };

  return {
    get offset() {
      return offset;
    },
    push(chunk) {
      const base = offset;
      let from = 0;
      while (from < chunk.length) {
        const lf = chunk.indexOf(LF, from);
        if (lf < 0) {
          const rest = chunk.length - from;
          if (oversize >= 0) oversize += rest;
          else if (held.length + rest > maxLineBytes) {
            oversize = held.length + rest;
            held.clear();
          } else {
            held.hold(chunk.subarray(from));
          }
          break;
        }
        const length = (oversize >= 0 ? oversize : held.length) + (lf - from);
        if (oversize >= 0 || length > maxLineBytes) callbacks.onOversize?.(lineStart, line, length);
        else if (held.length > 0) emit(held.take(chunk.subarray(from, lf)), 0, length, base + lf + 1);
        else emit(chunk, from, lf, base + lf + 1);
        oversize = -1;
        held.clear();
        lineStart = base + lf + 1;
        line++;
        from = lf + 1;
      }
      offset = base + chunk.length;
    },
    end() {
      if (oversize >= 0) {
        callbacks.onOversize?.(lineStart, line, oversize);
        return null;
      }
      if (held.length === 0) return null;
      return { bytes: held.take(), offset: lineStart, line };
    },
  };
}
