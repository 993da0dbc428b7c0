import type { Frame } from '../sse/types';
import { utf8ByteLength } from '../text/utf8';

/** A Frame for dialect unit tests that do not need the framer; offsets are synthetic. */
export function frameOf(data: string, seq = 0, overrides: Partial<Frame> = {}): Frame {
  return {
    seq,
    byteStart: seq * 1000,
    byteEnd: seq * 1000 + data.length + 8,
    chunkFirst: seq,
    chunkLast: seq,
    receivedAt: seq,
    event: '',
    data,
    id: '',
    dataLines: 1,
    // What the framer counts for one data line: its UTF-8 bytes.
    maxDataLineBytes: utf8ByteLength(data),
    ...overrides,
  };
}
