import { describe, expect, test } from 'vitest';
import type { DiagnosticInit } from '../diagnostics/types';
import type { Frame } from '../sse/types';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { createLineFramer } from './line-framer';

const isJson = (line: string): boolean => {
  try {
    JSON.parse(line.slice(2));
    return true;
  } catch {
    return false;
  }
};

function frameLines(chunks: readonly Uint8Array[], receivedAt: (i: number) => number = () => 0) {
  const frames: Frame[] = [];
  const diagnostics: DiagnosticInit[] = [];
  const framer = createLineFramer(
    { onFrame: (f) => frames.push(f), onDiagnostic: (d) => diagnostics.push(d) },
    { isComplete: isJson },
  );
  chunks.forEach((chunk, i) => framer.push(chunk, receivedAt(i)));
  return { frames, diagnostics, summary: framer.end() };
}

const whole = (text: string) => frameLines([encodeUtf8(text)]);

describe.each([
  ['LF', '\n'],
  ['CRLF', '\r\n'],
  ['CR', '\r'],
])('line frames with %s line endings', (_name, eol) => {
  test('one frame per line; frames tile the stream, blank lines belong to the frame after them', () => {
    const text = `0:"a"${eol}${eol}0:"bb"${eol}d:{}${eol}`;
    const { frames, summary } = whole(text);
    const ends = [5 + eol.length, 5 + 2 * eol.length + 6 + eol.length, text.length];
    expect(frames.map((f) => [f.data, f.byteStart, f.byteEnd])).toEqual([
      ['0:"a"', 0, ends[0]],
      ['0:"bb"', ends[0], ends[1]],
      ['d:{}', ends[1], ends[2]],
    ]);
    expect(frames.map((f) => [f.seq, f.event, f.id, f.dataLines])).toEqual([
      [0, '', '', 1],
      [1, '', '', 1],
      [2, '', '', 1],
    ]);
    expect(summary).toMatchObject({ frames: 3, bytes: text.length, endedInsideEvent: false, lastEventId: '' });
  });
});

describe('where a stream ends', () => {
  test('a last line without its line ending is a frame when it is whole, with no finding', () => {
    const { frames, diagnostics, summary } = whole('0:"a"\nd:{"finishReason":"stop"}');
    expect(frames.map((f) => [f.data, f.byteEnd])).toEqual([
      ['0:"a"', 6],
      ['d:{"finishReason":"stop"}', 31],
    ]);
    expect(diagnostics).toEqual([]);
    expect(summary.endedInsideEvent).toBe(false);
  });

  test('a last line cut inside its part is reported, and the stream ended inside an event', () => {
    const { frames, diagnostics, summary } = whole('0:"a"\nd:{"finishRea');
    expect(frames.map((f) => f.data)).toEqual(['0:"a"']);
    expect(diagnostics).toEqual([
      {
        rule: 'stream.unterminated-line',
        message: expect.stringContaining('13 bytes lost: "d:{\\"finishRea"') as string,
        at: { byteStart: 6, byteEnd: 19 },
      },
    ]);
    expect(summary.endedInsideEvent).toBe(true);
  });

  test('must not: a stream ending with its line ending, or with blank lines, loses nothing', () => {
    for (const text of ['0:"a"\n', '0:"a"\n\n\r\n', '']) {
      const { diagnostics, summary } = whole(text);
      expect(diagnostics).toEqual([]);
      expect(summary.endedInsideEvent).toBe(false);
    }
  });
});

describe('bytes and chunks', () => {
  test('a leading BOM is skipped, and counted in the offsets', () => {
    const { frames } = whole('\uFEFF0:"a"\n');
    expect(frames.map((f) => [f.data, f.byteStart, f.byteEnd])).toEqual([['0:"a"', 0, 9]]);
  });

  test('invalid UTF-8 inside a line is replaced and reported at its bytes, with the frame', () => {
    const bytes = new Uint8Array([...encodeUtf8('0:"a'), 0xff, ...encodeUtf8('"\n')]);
    const { frames, diagnostics } = frameLines([bytes]);
    expect(frames[0]?.data).toBe('0:"a\uFFFD"');
    expect(diagnostics).toEqual([
      expect.objectContaining({ rule: 'sse.invalid-utf8', at: { frame: 0, byteStart: 4, byteEnd: 5 } }),
    ]);
  });

  test('chunk spans and receive times: a line cut across chunks ends in the chunk of its line ending', () => {
    const { frames } = frameLines(['0:"a', '"\n0:', '"b"\n'].map(encodeUtf8), (i) => 100 + i);
    expect(frames.map((f) => [f.chunkFirst, f.chunkLast, f.receivedAt])).toEqual([
      [0, 1, 101],
      [1, 2, 102],
    ]);
  });

  test('the same frames and findings whatever the chunking', () => {
    const text = '\uFEFF0:"日本語 😀"\r\n\r\n2:[{"a":1}]\r9:{"toolCallId":"c"}\nd:{"finishReas';
    const results = chunkings(encodeUtf8(text)).map(({ name, chunks }) => {
      const { frames, diagnostics, summary } = frameLines(chunks);
      return {
        name,
        shape: JSON.stringify({
          frames: frames.map(({ chunkFirst: _f, chunkLast: _l, ...f }) => f),
          diagnostics,
          summary: { ...summary, chunks: 0 },
        }),
      };
    });
    const [first, ...rest] = results;
    expect(rest.filter((r) => r.shape !== first?.shape).map((r) => r.name)).toEqual([]);
  });
});
