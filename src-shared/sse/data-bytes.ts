import { utf8ByteLength } from '../text/utf8';
import type { Frame } from './types';

/**
 * UTF-8 bytes of a frame's data, which the statistics and some dialects need for every
 * event. The framer counts them while it frames (the data lines' byte lengths and the LFs
 * joining them) and says so for the frame it dispatches (`dispatchCounted`), so
 * they are not measured again: measuring scanned the data for U+FFFD at least, a cost per
 * event where a v4 data stream has 70,000 events per MB. One frame is remembered, by
 * identity, so a stale answer is impossible: any other frame is measured. It is remembered
 * only while it is dispatched, so the module never keeps a frame (its data may be megabytes)
 * alive after the decoder that made it is gone.
 */
let knownFrame: Frame | undefined;
let knownBytes = 0;

/**
 * Dispatches `frame` to `onFrame`, saying while it runs that its data is `bytes` UTF-8 bytes
 * as the framer counted them. `bytes` is undefined for data that holds invalid UTF-8: a
 * replaced sequence is 3 bytes once decoded, whatever its length on the wire.
 */
export function dispatchCounted(frame: Frame, bytes: number | undefined, onFrame: (frame: Frame) => void): void {
  if (bytes === undefined) return onFrame(frame);
  knownFrame = frame;
  knownBytes = bytes;
  try {
    onFrame(frame);
  } finally {
    knownFrame = undefined;
  }
}

/** UTF-8 bytes of `frame.data` (invalid UTF-8 counted as its replacement, U+FFFD). */
export function frameDataBytes(frame: Frame): number {
  if (frame === knownFrame) return knownBytes;
  return frame.dataLines === 1 && frame.data.indexOf('\uFFFD') === -1
    ? frame.maxDataLineBytes
    : utf8ByteLength(frame.data);
}
