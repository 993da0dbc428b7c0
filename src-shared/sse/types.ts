import type { DiagnosticSink } from '../diagnostics/types';

/**
 * One dispatched SSE event, exactly as a WHATWG EventSource would dispatch it, plus
 * where it came from. Byte offsets are absolute in the stream (after any BOM they
 * still count the BOM's bytes), `byteEnd` is exclusive and includes the blank line
 * that dispatched the event.
 */
export interface Frame {
  /** 0-based dispatch order within the stream. */
  seq: number;
  byteStart: number;
  byteEnd: number;
  /** Index of the network chunk holding the frame's first byte, and of its last byte. */
  chunkFirst: number;
  chunkLast: number;
  /** Receive time (ms, caller's clock) of the chunk that completed the frame. */
  receivedAt: number;
  /** The `event` field; '' when none was given (an EventSource dispatches `message`). */
  event: string;
  data: string;
  /** The last event ID at dispatch (WHATWG: persists across events). */
  id: string;
  /** Number of `data:` lines joined into `data`. */
  dataLines: number;
  /** Byte length of the longest `data:` line (field name and line ending excluded). */
  maxDataLineBytes: number;
}

export interface FramerCallbacks {
  onFrame: (frame: Frame) => void;
  onDiagnostic: DiagnosticSink;
  /** A valid `retry:` field (milliseconds). */
  onRetry?: (ms: number) => void;
}

export interface FramerOptions {
  /** Budget for one `data:` line in bytes; longer lines get `sse.oversize-line`. Default 2048. */
  maxDataLineBytes?: number;
  /**
   * Absent (the default), the stream's last event is dropped when no blank line follows it,
   * as an EventSource drops it (`frames` shows exactly what one dispatches). Given, such an
   * event — its last line counted complete at the end of the bytes — is dispatched when this
   * says its data is complete, with `sse.unterminated-last-event` (a warning), as the SDKs
   * read it; its frame then ends at the last byte. Otherwise it is still lost
   * (`sse.unterminated-event`).
   */
  dispatchUnterminated?: (data: string) => boolean;
}

export interface FramerSummary {
  frames: number;
  bytes: number;
  chunks: number;
  lastEventId: string;
  retry: number | null;
  /** The bytes ended inside an event that was not dispatched (fields or a partial line after the last blank line). */
  endedInsideEvent: boolean;
}

export interface SseFramer {
  /** Feed the next network chunk. `receivedAt` defaults to 0 (recordings without timing). */
  push(chunk: Uint8Array, receivedAt?: number): void;
  /** The stream ended: report an unterminated event (never dispatched, per WHATWG, unless FramerOptions.dispatchUnterminated takes it). */
  end(): FramerSummary;
}
