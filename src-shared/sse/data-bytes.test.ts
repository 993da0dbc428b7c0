import { describe, expect, test } from 'vitest';
import { listProviderFixtures, listSseFixtures, readFixture } from '../../src-main/testing/fixtures';
import { readProviderFixture } from '../../src-main/testing/provider-streams';
import { createLegFramer } from '../pipeline/leg-framing';
import { SESSION_FRAMING } from '../pipeline/last-event';
import { chunkings } from '../testing/chunking';
import { encodeUtf8, utf8ByteLength } from '../text/utf8';
import { frameDataBytes } from './data-bytes';
import type { Frame } from './types';

/**
 * The framers count each frame's data bytes as they frame (data-bytes.ts); the count must be
 * what measuring the data gives, whatever the framing and chunking. `{ ...frame }` is another
 * object, so frameDataBytes measures it.
 */
function checkEveryFrame(bytes: Uint8Array): number {
  let checked = 0;
  for (const { name, chunks } of chunkings(bytes, [1, 42])) {
    const frames: Frame[] = [];
    const framer = createLegFramer(
      {
        onFrame: (frame) => {
          expect(frameDataBytes(frame), `${name}, frame ${frame.seq}`).toBe(utf8ByteLength(frame.data));
          expect(frameDataBytes(frame)).toBe(frameDataBytes({ ...frame }));
          frames.push(frame);
          checked++;
        },
        onDiagnostic: () => {},
      },
      SESSION_FRAMING,
    );
    chunks.forEach((chunk, i) => framer.push(chunk, i));
    framer.end();
    // Frames asked about later are measured: the count is remembered for the last one only.
    for (const frame of frames) expect(frameDataBytes(frame)).toBe(utf8ByteLength(frame.data));
  }
  return checked;
}

const bytesOf = (...parts: (string | number[])[]): Uint8Array => {
  const out: number[] = [];
  for (const part of parts) out.push(...(typeof part === 'string' ? encodeUtf8(part) : part));
  return new Uint8Array(out);
};

describe("a frame's data bytes, counted by the framer, equal its data measured", () => {
  test('every upstream fixture (SSE)', () => {
    for (const name of listSseFixtures()) expect(checkEveryFrame(readFixture(name))).toBeGreaterThan(0);
  });

  test('every provider fixture (SSE, and the line-framed v4 data stream)', () => {
    for (const name of listProviderFixtures()) expect(checkEveryFrame(readProviderFixture(name))).toBeGreaterThan(0);
  });

  test('SSE: several data lines, CRLF, a BOM, multi-byte text, a valid U+FFFD and invalid UTF-8', () => {
    const stream = bytesOf(
      [0xef, 0xbb, 0xbf],
      'data: première\r\ndata: 数据 😀\r\n\r\n',
      'data:no space\n\n',
      'data: \uFFFD encoded\n\n',
      'data: bad ',
      [0xc3, 0x28, 0xff],
      ' bytes\ndata: second line\n\n',
      'data: {"cut":"last event, no blank line"}',
    );
    expect(checkEveryFrame(stream)).toBeGreaterThan(0);
  });

  test('lines: multi-byte text, a valid U+FFFD, invalid UTF-8 and a last line without its ending', () => {
    const stream = bytesOf('0:"é数据😀"\r\n', '0:"\uFFFD"\n', '0:"', [0xe2, 0x82], '"\n', '\n0:"last"');
    expect(checkEveryFrame(stream)).toBeGreaterThan(0);
  });
});
