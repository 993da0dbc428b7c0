import { describe, expect, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { frameChunks } from './collect';
import { createSseFramer } from './framer';

const EOLS = [
  { name: 'LF', eol: '\n' },
  { name: 'CR', eol: '\r' },
  { name: 'CRLF', eol: '\r\n' },
] as const;

/** Build a stream from lines, each followed by `eol`. */
function stream(lines: readonly string[], eol: string): string {
  return lines.map((l) => l + eol).join('');
}

function frame(text: string) {
  return frameChunks([encodeUtf8(text)]);
}

function events(text: string) {
  return frame(text).frames.map((f) => ({ event: f.event, data: f.data, id: f.id }));
}

function rules(text: string | Uint8Array[]) {
  return (typeof text === 'string' ? frame(text) : frameChunks(text)).diagnostics.map((d) => d.rule);
}

describe.each(EOLS)('WHATWG interpretation with $name line endings', ({ eol }) => {
  test('dispatches only on a blank line and strips exactly one leading space', () => {
    expect(events(stream(['data: one', '', 'data:two', '', 'data:  three', ''], eol))).toEqual([
      { event: '', data: 'one', id: '' },
      { event: '', data: 'two', id: '' },
      { event: '', data: ' three', id: '' },
    ]);
  });

  test('joins data lines with LF and removes only the trailing LF', () => {
    expect(events(stream(['data: a', 'data: b', 'data:', ''], eol))).toEqual([{ event: '', data: 'a\nb\n', id: '' }]);
  });

  test('a field without a colon takes the whole line as its name and an empty value', () => {
    expect(events(stream(['data', 'data', '', 'event', 'data: x', ''], eol))).toEqual([
      { event: '', data: '\n', id: '' },
      { event: '', data: 'x', id: '' },
    ]);
  });

  test('keeps colons inside the value', () => {
    expect(events(stream(['data: a: b:c', 'event: x:y', ''], eol))).toEqual([{ event: 'x:y', data: 'a: b:c', id: '' }]);
  });

  test('does not dispatch when the data buffer is empty, and still resets the event type', () => {
    expect(events(stream(['event: lonely', '', 'data: x', ''], eol))).toEqual([{ event: '', data: 'x', id: '' }]);
  });

  test('resets the event type after every dispatch', () => {
    expect(events(stream(['event: first', 'data: 1', '', 'data: 2', ''], eol))).toEqual([
      { event: 'first', data: '1', id: '' },
      { event: '', data: '2', id: '' },
    ]);
  });

  test('the last event ID persists across events, and an empty id resets it', () => {
    expect(events(stream(['id: 7', 'data: a', '', 'data: b', '', 'id', 'data: c', ''], eol))).toEqual([
      { event: '', data: 'a', id: '7' },
      { event: '', data: 'b', id: '7' },
      { event: '', data: 'c', id: '' },
    ]);
  });

  test('an id in an event without data still sets the last event ID', () => {
    const result = frame(stream(['id: 9', '', 'data: a', ''], eol));
    expect(result.frames.map((f) => f.id)).toEqual(['9']);
    expect(result.summary.lastEventId).toBe('9');
  });

  test('an id containing NUL is ignored', () => {
    const result = frame(stream(['id: 1', 'data: a', '', 'id: 2\0x', 'data: b', ''], eol));
    expect(result.frames.map((f) => f.id)).toEqual(['1', '1']);
    expect(result.summary.lastEventId).toBe('1');
  });

  test('retry is applied only when all ASCII digits', () => {
    const result = frame(stream(['retry: 1500', 'retry: 15s', 'retry: -1', 'retry', 'retry: 2500', 'data: x', ''], eol));
    expect(result.retries).toEqual([1500, 2500]);
    expect(result.summary.retry).toBe(2500);
    expect(result.frames).toHaveLength(1);
  });

  test('comment lines are ignored without a diagnostic', () => {
    const result = frame(stream([': keep-alive', 'data: a', ':', ''], eol));
    expect(result.frames.map((f) => f.data)).toEqual(['a']);
    expect(result.diagnostics).toEqual([]);
  });

  test('field names are case-sensitive: Data is not data', () => {
    const result = frame(stream(['Data: x', ''], eol));
    expect(result.frames).toEqual([]);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['sse.unknown-field']);
  });

  test('strips one leading BOM; a second BOM is part of the first field name', () => {
    expect(events(`\uFEFF${stream(['data: a', ''], eol)}`)).toEqual([{ event: '', data: 'a', id: '' }]);
    const twice = frame(`\uFEFF\uFEFF${stream(['data: a', ''], eol)}`);
    expect(twice.frames).toEqual([]);
    expect(twice.diagnostics.map((d) => d.rule)).toEqual(['sse.ignored-line']);
  });

  test('a BOM after the start is data', () => {
    expect(events(stream(['data: \uFEFFx', ''], eol))).toEqual([{ event: '', data: '\uFEFFx', id: '' }]);
  });

  test('the unterminated last event is discarded', () => {
    const result = frame(`${stream(['data: a', '', 'data: b'], eol)}`);
    expect(result.frames.map((f) => f.data)).toEqual(['a']);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['sse.unterminated-event']);
  });

  test('a last line without a line ending is never interpreted', () => {
    const result = frame(`${stream(['data: a', ''], eol)}id: 5`);
    expect(result.summary.lastEventId).toBe('');
  });

  test('frames tile the stream: each starts where the previous dispatch ended', () => {
    const text = stream([': hello', 'data: a', '', '', 'id: 1', 'data: bb', '', 'data: c'], eol);
    const result = frame(text);
    expect(result.frames.map((f) => [f.byteStart, f.byteEnd])).toEqual([
      [0, stream([': hello', 'data: a', ''], eol).length],
      [stream([': hello', 'data: a', ''], eol).length, stream([': hello', 'data: a', '', '', 'id: 1', 'data: bb', ''], eol).length],
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

  test('a CR at the end of a chunk followed by another line ends the line', () => {
    const result = frameChunks(enc('data: a\r', 'data: b\r', '\r'));
    expect(result.frames.map((f) => f.data)).toEqual(['a\nb']);
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

  test('mixed line endings in one stream', () => {
    expect(frame('data: a\rdata: b\r\ndata: c\n\r\ndata: d\r\r').frames.map((f) => f.data)).toEqual(['a\nb\nc', 'd']);
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
    expect(result.frames.map((f) => ({ chunkFirst: f.chunkFirst, chunkLast: f.chunkLast, receivedAt: f.receivedAt }))).toEqual([
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
    expect(frameChunks(chunks).summary).toEqual({ frames: 1, bytes: 26, chunks: 3, lastEventId: 'x', retry: 300, endedInsideEvent: false });
  });

  test.each([
    ['a data line without its blank line', 'data: a\n\ndata: b\n', true],
    ['half a line', 'data: a\n\ndata: {"ty', true],
    ['an event: field alone', 'data: a\n\nevent: x\n', true],
    ['a comment after the last event', 'data: a\n\n: keep-alive\n', false],
    ['a clean end', 'data: a\n\n', false],
  ])('summary says whether the bytes ended inside an event: %s', (_name, text, inside) => {
    for (const { chunks } of chunkings(encodeUtf8(text))) expect(frameChunks(chunks).summary.endedInsideEvent).toBe(inside);
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
  test('decodes multi-byte characters cut across chunks', () => {
    const bytes = encodeUtf8('data: 日本 😀\n\n');
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(frameChunks(chunks).frames.map((f) => f.data)).toEqual(['日本 😀']);
  });

  test('a correctly encoded U+FFFD in the stream is not an error', () => {
    expect(rules('data: \uFFFD\n\n')).toEqual([]);
  });

  test('lost text previews in messages are cut on a character boundary', () => {
    const line = `${'é'.repeat(100)}\n`;
    const message = frame(line).diagnostics[0]?.message ?? '';
    expect(message).not.toContain('\uFFFD');
    expect(message).toContain('…');
  });
});
