import type { FrameDetail } from '../../../../src-shared/contract/payloads';
import { createLineFramer } from '../../../../src-shared/lines/line-framer';
import { createJsonArrayFramer } from '../../../../src-shared/pipeline/json-array-framer';
import { SESSION_FRAMING } from '../../../../src-shared/pipeline/last-event';
import { isJsonFraming, type Framing } from '../../../../src-shared/pipeline/leg-framing';
import { createSseFramer } from '../../../../src-shared/sse/framer';
import type { Frame, FramerCallbacks, SseFramer } from '../../../../src-shared/sse/types';
import type { LegState } from './leg-state';
import type { RawChunks } from './raw-chunks';

/**
 * The frame index keeps no event's type or data: what a frame carried is read again by framing
 * its bytes once more, one event for its detail, a whole leg for the block diff.
 */

/** How a leg is framed: its decoder says while the leg is open, the leg's end after. */
export function framingOf(leg: LegState): Framing {
  return leg.decoder?.framing() ?? leg.framing ?? 'sse';
}

/**
 * A framer as the session decoder frames a leg. A line that was framed is whole: every line
 * is taken, the last one even without its line ending.
 */
function framerOf(framing: Framing, onFrame: FramerCallbacks['onFrame'], startsStream = true): SseFramer {
  const callbacks = { onFrame, onDiagnostic: () => {} };
  if (framing === 'lines') return createLineFramer(callbacks, { isComplete: () => true });
  if (isJsonFraming(framing)) return createJsonArrayFramer(callbacks, { insideArray: !startsStream });
  return createSseFramer(callbacks, { maxDataLineBytes: Number.MAX_SAFE_INTEGER, ...SESSION_FRAMING });
}

/** A leg's frames with their data, by framing its bytes again in one pass. */
export function reframeLeg(raw: RawChunks, framing: Framing): Frame[] {
  const frames: Frame[] = [];
  const framer = framerOf(framing, (frame) => frames.push(frame));
  for (let i = 0; i < raw.count; i++) {
    const chunk = raw.chunk(i);
    if (chunk) framer.push(chunk.bytes, chunk.receivedAt);
  }
  framer.end();
  return frames;
}

/** A blank line: framed before an event that does not start the stream, it dispatches nothing. */
const NOT_THE_START = new Uint8Array([0x0a]);

/**
 * One event as framing exactly its bytes again gives it: its type, data and data lines (the
 * frame index keeps none of them). Its id is not among them: an event without an id line
 * carries the one before it. Only the stream's first event may begin with a BOM that framing
 * skips: any other is framed after a blank line, so a BOM it begins with stays content. A
 * JSON array body's element is framed from inside the array (its `[` is in the first frame).
 */
export function reframe(
  bytes: Uint8Array,
  startsStream: boolean,
  framing: Framing = 'sse',
): Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> {
  let event: Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> = {
    event: '',
    data: '',
    dataLines: 0,
    maxDataLineBytes: 0,
  };
  const framer = framerOf(framing, (frame) => (event = frame), startsStream);
  if (!startsStream && !isJsonFraming(framing)) framer.push(NOT_THE_START);
  framer.push(bytes);
  framer.end();
  return event;
}

/** Frame `seq` of a leg: its place from the index, its type and data framed again from the raw bytes. */
export function frameDetail(leg: number, seq: number, state: LegState): FrameDetail | undefined {
  const compact = state.frames.get(seq);
  if (!compact) return undefined;
  const framing = framingOf(state);
  const { event, data, dataLines, maxDataLineBytes } = reframe(
    state.raw.slice(compact.byteStart, compact.byteEnd),
    compact.byteStart === 0,
    framing,
  );
  const { byteStart, byteEnd, chunkFirst, chunkLast, receivedAt, id } = compact;
  return {
    leg,
    seq,
    byteStart,
    byteEnd,
    chunkFirst,
    chunkLast,
    receivedAt,
    event,
    id,
    dataLines,
    maxDataLineBytes,
    data,
    ...(framing === 'lines' ? { line: true } : {}),
  };
}
