import type { Frame } from '../sse/types';

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
    maxDataLineBytes: data.length,
    ...overrides,
  };
}
