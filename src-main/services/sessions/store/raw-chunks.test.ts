import { describe, expect, it } from 'vitest';
import { createRawChunks, rawBytesOf } from './raw-chunks';
import { SpoolFile } from './spool-file';

describe('rawBytesOf', () => {
  it('gives at most cap bytes from start, says when it cut, and names the chunks they overlap', () => {
    const raw = createRawChunks(new SpoolFile());
    raw.append(new TextEncoder().encode('abcd'), 1);
    raw.append(new TextEncoder().encode('efgh'), 2);
    const part = rawBytesOf(3, raw, 2, 8, 4);
    expect(part).toMatchObject({ leg: 3, byteStart: 2, byteEnd: 6, truncated: true });
    expect(Buffer.from(part.base64, 'base64').toString()).toBe('cdef');
    expect(part.chunks.map((c) => c.receivedAt)).toEqual([1, 2]);
    // Past the end: empty, not cut.
    expect(rawBytesOf(0, raw, 20, 30, 4)).toMatchObject({ byteStart: 8, byteEnd: 8, base64: '', truncated: false });
  });
});
