import type { FrameDetail } from '../../../../src-shared/contract/payloads';
import {
  bodyFramingOf,
  createBodyFramer,
  FRAMING_DECIDED_WITHIN,
  type BodyFraming,
} from '../../../../src-shared/pipeline/body-framing';
import { createJsonArrayFramer } from '../../../../src-shared/pipeline/json-array-framer';
import { SESSION_FRAMING } from '../../../../src-shared/pipeline/last-event';
import { createSseFramer } from '../../../../src-shared/sse/framer';
import type { Frame } from '../../../../src-shared/sse/types';
import type { FrameTable } from './envelope-table';
import type { RawChunks } from './raw-chunks';

/**
 * The frame index keeps no event's type or data: what a frame carried is read again by framing
 * its bytes once more, one event for its detail, a whole leg for the block diff.
 */

/** A leg's frames with their data, by framing its bytes again in one pass (as the decoder framed them). */
export function reframeLeg(raw: RawChunks): Frame[] {
  const frames: Frame[] = [];
  const framer = createBodyFramer(
    { onFrame: (frame) => frames.push(frame), onDiagnostic: () => {} },
    { maxDataLineBytes: Number.MAX_SAFE_INTEGER, ...SESSION_FRAMING },
  );
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
  framing: BodyFraming = 'sse',
): Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> {
  let event: Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> = {
    event: '',
    data: '',
    dataLines: 0,
    maxDataLineBytes: 0,
  };
  const callbacks = { onFrame: (frame: Frame) => (event = frame), onDiagnostic: () => {} };
  const framer =
    framing === 'json-array'
      ? createJsonArrayFramer(callbacks, { insideArray: !startsStream })
      : createSseFramer(callbacks, SESSION_FRAMING);
  if (!startsStream && framing === 'sse') framer.push(NOT_THE_START);
  framer.push(bytes);
  framer.end();
  return event;
}

/** Frame `seq` of leg `leg`: its place from the index, its type and data framed again from the raw bytes. */
export function frameDetail(leg: number, seq: number, frames: FrameTable, raw: RawChunks): FrameDetail | undefined {
  const compact = frames.get(seq);
  if (!compact) return undefined;
  const { event, data, dataLines, maxDataLineBytes } = reframe(
    raw.slice(compact.byteStart, compact.byteEnd),
    compact.byteStart === 0,
    bodyFramingOf(raw.slice(0, Math.min(raw.bytes, FRAMING_DECIDED_WITHIN))) ?? 'sse',
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
  };
}
