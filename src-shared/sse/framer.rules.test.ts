/** One stream that triggers each sse.* rule and one that must not. */
import { describe, expect, test } from 'vitest';
import { concatBytes } from '../bytes/held-bytes';
import type { RuleId } from '../diagnostics/rules';
import { encodeUtf8 } from '../text/utf8';
import { frameChunks } from './collect';
import type { FramerOptions } from './types';

const EOLS = [
  { name: 'LF', eol: '\n' },
  { name: 'CR', eol: '\r' },
  { name: 'CRLF', eol: '\r\n' },
] as const;

function lines(eol: string, ...ls: string[]): string {
  return ls.map((l) => l + eol).join('');
}

function frame(text: string | Uint8Array, options: FramerOptions = {}) {
  return frameChunks([typeof text === 'string' ? encodeUtf8(text) : text], options);
}

function only(text: string | Uint8Array, rule: RuleId, options: FramerOptions = {}) {
  return frame(text, options).diagnostics.filter((d) => d.rule === rule);
}

function bytesOf(...parts: (string | number[])[]): Uint8Array {
  return concatBytes(parts.map((p) => (typeof p === 'string' ? encodeUtf8(p) : Uint8Array.from(p))));
}

describe.each(EOLS)('sse.ignored-line ($name)', ({ eol }) => {
  test('triggers on a line with no colon, with its byte range and the lost text', () => {
    const text = lines(eol, 'data: first half', 'second half', '');
    const found = only(text, 'sse.ignored-line');
    const start = `data: first half${eol}`.length;
    expect(found).toHaveLength(1);
    expect(found[0]?.at).toEqual({ byteStart: start, byteEnd: start + 'second half'.length });
    expect(found[0]?.message).toContain('"second half"');
    expect(found[0]?.message).toContain('11 bytes lost');
  });

  test('triggers on a colon line whose name is not a field name', () => {
    expect(only(lines(eol, '  "files": [', 'data: x', ''), 'sse.ignored-line')).toHaveLength(1);
  });

  test('triggers on a field-like line that directly follows a data line', () => {
    const found = frame(lines(eol, 'data: Summary', 'Note: the rest', ''));
    expect(found.diagnostics.map((d) => d.rule)).toEqual(['sse.ignored-line']);
  });

  test('does not trigger on fields, comments or a field-like unknown name starting an event', () => {
    expect(
      only(
        lines(eol, ': ping', 'foo: bar', 'event: e', 'data: x', 'id: 1', 'retry: 5', 'data', ''),
        'sse.ignored-line',
      ),
    ).toEqual([]);
  });
});

describe('sse.ignored-line regressions', () => {
  test('raw CR inside an LF-framed xml item loses the text after it (probe_escaping CRLF bug)', () => {
    const result = frame('data: <text>CRLF:\r\nafter</text>\n\ndata: next\n\n');
    expect(result.frames.map((f) => f.data)).toEqual(['<text>CRLF:', 'next']);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['sse.ignored-line']);
    expect(result.diagnostics[0]?.message).toContain('after</text>');
  });
});

describe('sse.unknown-field', () => {
  test('triggers on a name: value line with an unknown field name at the start of an event', () => {
    const found = only('foo: bar\ndata: x\n\n', 'sse.unknown-field');
    expect(found).toHaveLength(1);
    expect(found[0]?.at).toEqual({ byteStart: 0, byteEnd: 8 });
    expect(found[0]?.message).toContain('"foo"');
  });

  test('triggers after another field that is not data', () => {
    expect(only('event: x\nx-trace: 1\ndata: y\n\n', 'sse.unknown-field')).toHaveLength(1);
  });

  test('does not trigger for payload text: no colon, sentence-like name, or right after data', () => {
    expect(only('hello world\ndata: x\n\n', 'sse.unknown-field')).toEqual([]);
    expect(only('1. Step: one\ndata: x\n\n', 'sse.unknown-field')).toEqual([]);
    expect(only('data: x\nfoo: bar\n\n', 'sse.unknown-field')).toEqual([]);
  });
});

describe('sse.early-dispatch', () => {
  test('triggers when an ignored line directly follows the dispatching blank line', () => {
    const result = frame('data: one\n\ndata: part\n\nlost text\n\ndata: three\n\n');
    const found = result.diagnostics.filter((d) => d.rule === 'sse.early-dispatch');
    expect(found).toHaveLength(1);
    expect(found[0]?.at).toEqual({
      frame: 1,
      byteStart: result.frames[1]?.byteStart,
      byteEnd: result.frames[1]?.byteEnd,
    });
    expect(found[0]?.message).toContain('"lost text"');
  });

  test('triggers when an empty data: event is followed by blank lines and then ignored lines', () => {
    const found = only('data:\n\n\n1. Create\n\n', 'sse.early-dispatch');
    expect(found.map((d) => d.at.frame)).toEqual([0]);
  });

  test('is reported once per cut event', () => {
    expect(only('data: a\n\nx\ny\nz\n\n', 'sse.early-dispatch')).toHaveLength(1);
  });

  test('does not trigger when a blank line separates a non-empty event from the ignored line', () => {
    const result = frame('data: a\n\n\nstray\n\n');
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['sse.ignored-line']);
  });

  test('does not trigger when a valid line comes between', () => {
    expect(only('data: a\n\n: ping\nstray\n\n', 'sse.early-dispatch')).toEqual([]);
    expect(only('data: a\n\ndata: b\n\n', 'sse.early-dispatch')).toEqual([]);
  });
});

describe('sse.oversize-line', () => {
  test('triggers on a data line over the budget, located at the value, with the frame', () => {
    const found = only('data: 12345678901\n\n', 'sse.oversize-line', { maxDataLineBytes: 10 });
    expect(found).toHaveLength(1);
    expect(found[0]?.at).toEqual({ byteStart: 6, byteEnd: 17, frame: 0 });
    expect(found[0]?.message).toContain('11 bytes');
  });

  test('uses a 2048-byte budget by default', () => {
    expect(only(`data: ${'x'.repeat(2049)}\n\n`, 'sse.oversize-line')).toHaveLength(1);
    expect(only(`data: ${'x'.repeat(2048)}\n\n`, 'sse.oversize-line')).toEqual([]);
  });

  test('counts bytes, not characters', () => {
    expect(only(`data: ${'é'.repeat(6)}\n\n`, 'sse.oversize-line', { maxDataLineBytes: 11 })).toHaveLength(1);
  });

  test('does not trigger for lines that are not data lines', () => {
    expect(
      only(`: ${'x'.repeat(50)}\nevent: ${'y'.repeat(50)}\ndata: z\n\n`, 'sse.oversize-line', { maxDataLineBytes: 10 }),
    ).toEqual([]);
  });

  test('is reported without a frame when its event never dispatches', () => {
    const found = only('data: 12345678901\n', 'sse.oversize-line', { maxDataLineBytes: 10 });
    expect(found.map((d) => d.at.frame)).toEqual([undefined]);
  });
});

describe('sse.multi-line-data', () => {
  test('triggers on an event with more than one data line', () => {
    const found = only('data: a\ndata: b\n\n', 'sse.multi-line-data');
    expect(found.map((d) => d.at)).toEqual([{ frame: 0, byteStart: 0, byteEnd: 17 }]);
  });

  test('does not trigger on one data line per event', () => {
    expect(only('data: a\n\ndata: b\n\n', 'sse.multi-line-data')).toEqual([]);
  });
});

describe('sse.invalid-utf8', () => {
  test('triggers at the exact byte offset of the bad sequence in a data value', () => {
    const result = frame(bytesOf('data: ok', [0xc3, 0x28], 'x\n\n'));
    expect(result.frames.map((f) => f.data)).toEqual(['ok\uFFFD(x']);
    const found = result.diagnostics.filter((d) => d.rule === 'sse.invalid-utf8');
    expect(found.map((d) => d.at)).toEqual([{ byteStart: 8, byteEnd: 9, frame: 0 }]);
    expect(found[0]?.message).toContain('C3');
  });

  test('locates a truncated sequence at the end of the value', () => {
    const found = only(bytesOf('event: a', [0xe6, 0x97], '\ndata: x\n\n'), 'sse.invalid-utf8');
    expect(found.map((d) => d.at)).toEqual([{ byteStart: 8, byteEnd: 10 }]);
  });

  test('counts every bad sequence of one value in one diagnostic', () => {
    const found = only(bytesOf('data: ', [0xff], 'a', [0xfe], '\n\n'), 'sse.invalid-utf8');
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('2 invalid sequences');
  });

  test('does not trigger on valid multi-byte text', () => {
    expect(only('data: 日本語 😀 é\n\n', 'sse.invalid-utf8')).toEqual([]);
  });
});

describe.each(EOLS)('sse.unterminated-event ($name)', ({ eol }) => {
  test('triggers when the stream ends inside an event, with the byte range of the lost event', () => {
    const head = lines(eol, 'data: a', '');
    const text = `${head}${lines(eol, 'event: e', 'data: b')}`;
    const found = only(text, 'sse.unterminated-event');
    expect(found.map((d) => d.at)).toEqual([{ byteStart: head.length, byteEnd: text.length }]);
    expect(found[0]?.message).toContain('"b"');
  });

  test('triggers on an unfinished last line', () => {
    const found = only(`${lines(eol, 'data: a', '')}data: [DONE]`, 'sse.unterminated-event');
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('[DONE]');
  });

  test('triggers when only an id is pending', () => {
    expect(only(lines(eol, 'id: 4'), 'sse.unterminated-event')).toHaveLength(1);
  });

  test('does not trigger on a complete stream, trailing blank lines or a trailing comment', () => {
    expect(only(lines(eol, 'data: a', '', '', ''), 'sse.unterminated-event')).toEqual([]);
    expect(only(`${lines(eol, 'data: a', '')}: bye`, 'sse.unterminated-event')).toEqual([]);
    expect(only('', 'sse.unterminated-event')).toEqual([]);
  });
});

describe('sse.id-with-nul', () => {
  test('triggers on an id containing NUL, located at the value', () => {
    const found = only('id: a\0b\ndata: x\n\n', 'sse.id-with-nul');
    expect(found.map((d) => d.at)).toEqual([{ byteStart: 4, byteEnd: 7 }]);
    expect(found[0]?.message).toContain('byte 5');
  });

  test('does not trigger on an id without NUL', () => {
    expect(only('id: a b\ndata: x\n\n', 'sse.id-with-nul')).toEqual([]);
  });
});

describe('sse.invalid-retry', () => {
  test.each(['1.5', '-1', ' 10', '10ms', ''])('triggers on retry value %j', (value) => {
    const result = frame(`retry:${value === '' ? '' : ` ${value}`}\ndata: x\n\n`);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['sse.invalid-retry']);
    expect(result.retries).toEqual([]);
  });

  test('does not trigger on all-digit values', () => {
    const result = frame('retry: 0\nretry: 007\ndata: x\n\n');
    expect(result.diagnostics).toEqual([]);
    expect(result.retries).toEqual([0, 7]);
  });
});

describe.each(EOLS)('sse.fields-without-event ($name)', ({ eol }) => {
  test('id and retry fields alone after the last event get the finding, on their lines, saying what they leave', () => {
    const text = lines(eol, 'data: a', '', 'id: resume-42', '', 'retry: 3000', '', ': bye', '');
    const result = frame(text);
    expect(result.frames.map((f) => f.data)).toEqual(['a']);
    const found = result.diagnostics.filter((d) => d.rule === 'sse.fields-without-event');
    expect(found).toHaveLength(1);
    const start = `data: a${eol}${eol}`.length;
    expect(found[0]?.at).toEqual({
      byteStart: start,
      byteEnd: start + `id: resume-42${eol}${eol}retry: 3000${eol}${eol}`.length,
    });
    expect(found[0]?.message).toContain('the last event ID "resume-42" and a reconnection time of 3000 ms');
    expect(found[0]?.message).toContain('Last-Event-ID');
  });

  test('must not trigger for fields before an event, an unknown field, an event type without data, or a stream ending with an event', () => {
    const text = lines(eol, 'id: 7', '', 'retry: 10', '', 'data: a', '', 'foo: bar', '', 'event: ping', '');
    expect(only(text, 'sse.fields-without-event')).toEqual([]);
    expect(only(lines(eol, 'id: 1', 'data: a', ''), 'sse.fields-without-event')).toEqual([]);
    expect(only(lines(eol, 'data: a', '', 'id: 2\u0000x', ''), 'sse.fields-without-event')).toEqual([]);
  });
});

describe.each(EOLS)('sse.event-without-data ($name)', ({ eol }) => {
  test('an event:-only event gets the finding, located on its lines, and dispatches nothing', () => {
    const text = lines(eol, 'data: a', '', 'event: ping', '', 'data: b', '');
    const result = frame(text);
    expect(result.frames.map((f) => [f.event, f.data])).toEqual([
      ['', 'a'],
      ['', 'b'],
    ]);
    const found = result.diagnostics.filter((d) => d.rule === 'sse.event-without-data');
    expect(found).toHaveLength(1);
    const start = `data: a${eol}${eol}`.length;
    expect(found[0]?.at).toEqual({ byteStart: start, byteEnd: start + `event: ping${eol}${eol}`.length });
    expect(found[0]?.message).toContain('"ping"');
  });

  test('must not trigger for an event with data, an id-only event or an empty event type', () => {
    const text = lines(eol, 'event: ping', 'data: x', '', 'id: 7', '', 'event:', '', ': comment', '');
    expect(only(text, 'sse.event-without-data')).toEqual([]);
  });
});
