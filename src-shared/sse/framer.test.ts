/** Where frames come from (offsets, chunks, timing); what they contain is conformance.test.ts. */
import { describe, expect, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { frameChunks } from './collect';
import { EOLS } from '../testing/sse-conformance';
import { createSseFramer } from './framer';

/** Build a stream from lines, each followed by `eol`. */
function stream(lines: readonly string[], eol: string): string {
  return lines.map((l) => l + eol).join('');
}

function frame(text: string) {
  return frameChunks([encodeUtf8(text)]);
}

describe.each(EOLS)('frame offsets with $name line endings', ({ eol }) => {
  test('frames tile the stream: each starts where the previous dispatch ended', () => {
    const text = stream([': hello', 'data: a', '', '', 'id: 1', 'data: bb', '', 'data: c'], eol);
    const result = frame(text);
    expect(result.frames.map((f) => [f.byteStart, f.byteEnd])).toEqual([
      [0, stream([': hello', 'data: a', ''], eol).length],
      [
        stream([': hello', 'data: a', ''], eol).length,
        stream([': hello', 'data: a', '', '', 'id: 1', 'data: bb', ''], eol).length,
      ],
    ]);
    expect(result.summary.bytes).toBe(text.length);
  });
});

describe('line endings across chunk boundaries', () => {
  const enc = (...parts: string[]) => parts.map(encodeUtf8);

  test('a CR at the end of a chunk and an LF at the start of the next are one line ending', () => {
    const result = frameChunks(enc('data: a\r', '\ndata: b\r', '\n\r', '\n'));
    expect(result.frames.map((f) => f.data)).toEqual(['a\nb']);
    expect(result.frames[0]?.byteEnd).toBe(20);
  });

  test('a CR as the last byte of the stream ends the line', () => {
    const result = frameChunks(enc('data: a\r', '\r'));
    expect(result.frames.map((f) => [f.data, f.byteEnd])).toEqual([['a', 9]]);
    expect(result.diagnostics).toEqual([]);
  });

  test('empty chunks between CR and LF do not split the line ending', () => {
    const result = frameChunks(enc('data: a\r\n\r', '', '', '\n'));
    expect(result.frames.map((f) => [f.data, f.byteEnd, f.chunkLast])).toEqual([['a', 11, 3]]);
    expect(result.summary.chunks).toBe(4);
  });

  test('a BOM cut across chunks is still stripped', () => {
    const bytes = encodeUtf8('\uFEFFdata: a\n\n');
    const result = frameChunks([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]);
    expect(result.frames.map((f) => [f.data, f.byteStart, f.byteEnd])).toEqual([['a', 0, 12]]);
  });
});

describe('where frames come from', () => {
  test('chunkFirst, chunkLast and receivedAt follow the chunks holding the first and last byte', () => {
    const chunks = ['data: a\n', '\ndata: b', '\n', '\n', 'data: c\n\n'].map(encodeUtf8);
    const result = frameChunks(chunks, {}, (i) => 100 + i);
    expect(
      result.frames.map((f) => ({ chunkFirst: f.chunkFirst, chunkLast: f.chunkLast, receivedAt: f.receivedAt })),
    ).toEqual([
      { chunkFirst: 0, chunkLast: 1, receivedAt: 101 },
      { chunkFirst: 1, chunkLast: 3, receivedAt: 103 },
      { chunkFirst: 4, chunkLast: 4, receivedAt: 104 },
    ]);
  });

  test('a frame completed by a CR held over a chunk boundary is timed by the chunk of its last byte', () => {
    const result = frameChunks(['data: a\n\r', 'data: b\n\n'].map(encodeUtf8), {}, (i) => 10 * (i + 1));
    expect(result.frames.map((f) => [f.data, f.chunkLast, f.receivedAt, f.byteEnd])).toEqual([
      ['a', 0, 10, 9],
      ['b', 1, 20, 18],
    ]);
    expect(result.frames[1]?.chunkFirst).toBe(1);
  });

  test('the first frame counts the BOM bytes', () => {
    const result = frame('\uFEFFdata: x\n\n');
    expect(result.frames[0]).toMatchObject({ byteStart: 0, byteEnd: 12 });
  });

  test('dataLines and maxDataLineBytes describe the data lines (value bytes only)', () => {
    const result = frame('data: é\ndata:abc\ndata: \n\n');
    expect(result.frames[0]).toMatchObject({ data: 'é\nabc\n', dataLines: 3, maxDataLineBytes: 3 });
  });

  test('seq numbers dispatches from 0', () => {
    expect(frame('data: a\n\ndata: b\n\n').frames.map((f) => f.seq)).toEqual([0, 1]);
  });

  test('summary counts frames, bytes, chunks, last event ID and retry', () => {
    const chunks = ['retry: 300\nid: x\n', 'data: a\n\n', ''].map(encodeUtf8);
    expect(frameChunks(chunks).summary).toEqual({
      frames: 1,
      bytes: 26,
      chunks: 3,
      lastEventId: 'x',
      retry: 300,
      endedInsideEvent: false,
    });
  });

  test.each([
    ['a data line without its blank line', 'data: a\n\ndata: b\n', true],
    ['half a line', 'data: a\n\ndata: {"ty', true],
    ['an event: field alone', 'data: a\n\nevent: x\n', true],
    ['a comment after the last event', 'data: a\n\n: keep-alive\n', false],
    ['a clean end', 'data: a\n\n', false],
  ])('summary says whether the bytes ended inside an event: %s', (_name, text, inside) => {
    for (const { chunks } of chunkings(encodeUtf8(text)))
      expect(frameChunks(chunks).summary.endedInsideEvent).toBe(inside);
  });

  test('a chunk buffer reused by the caller after push does not corrupt a held line', () => {
    const frames: string[] = [];
    const framer = createSseFramer({ onFrame: (f) => frames.push(f.data), onDiagnostic: () => undefined });
    const buffer = new Uint8Array(8);
    for (const part of ['data: he', 'llo\n\n']) {
      buffer.fill(0x21);
      buffer.set(encodeUtf8(part));
      framer.push(buffer.subarray(0, part.length));
    }
    framer.end();
    expect(frames).toEqual(['hello']);
  });

  test('end() is idempotent and push() after end() is a programming error', () => {
    const framer = createSseFramer({ onFrame: () => undefined, onDiagnostic: () => undefined });
    framer.push(encodeUtf8('data: a\n\n'));
    const first = framer.end();
    expect(framer.end()).toBe(first);
    expect(() => framer.push(encodeUtf8('data: b\n\n'))).toThrow(/after end/);
  });
});

describe('UTF-8', () => {
  test('lost text previews in messages are cut on a character boundary', () => {
    const line = `${'é'.repeat(100)}\n`;
    const message = frame(line).diagnostics[0]?.message ?? '';
    expect(message).not.toContain('\uFFFD');
    expect(message).toContain('…');
  });
});
