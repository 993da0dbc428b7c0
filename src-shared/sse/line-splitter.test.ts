import { describe, expect, test } from 'vitest';
import { splitEvery } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { createLineSplitter, type UnterminatedLine } from './line-splitter';

interface Line {
  text: string;
  lineStart: number;
  lineEnd: number;
  lastChunk: number;
}

function split(chunks: Uint8Array[]): { lines: Line[]; tail: UnterminatedLine | null } {
  const lines: Line[] = [];
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const splitter = createLineSplitter({
    line: ({ bytes, start, end, text, textStart, textEnd, lineStart, lineEnd, lastChunk }) => {
      const fromText = text.slice(textStart, textEnd);
      // The text handed over must be the decoded bytes of the same line.
      expect(fromText).toBe(decoder.decode(bytes.subarray(start, end)));
      lines.push({ text: fromText, lineStart, lineEnd, lastChunk });
    },
  });
  chunks.forEach((chunk, i) => splitter.push(chunk, i, 0));
  return { lines, tail: splitter.end() };
}

const EOLS = [
  { name: 'LF', eol: '\n' },
  { name: 'CR', eol: '\r' },
  { name: 'CRLF', eol: '\r\n' },
] as const;

describe.each(EOLS)('$name', ({ eol }) => {
  const text = `a${eol}${eol}bc${eol}`;
  const expected = [
    { text: 'a', lineStart: 0, lineEnd: 1 + eol.length },
    { text: '', lineStart: 1 + eol.length, lineEnd: 1 + 2 * eol.length },
    { text: 'bc', lineStart: 1 + 2 * eol.length, lineEnd: 3 + 3 * eol.length },
  ];

  test('splits lines with absolute offsets', () => {
    expect(split([encodeUtf8(text)]).lines.map(({ lastChunk: _, ...l }) => l)).toEqual(expected);
  });

  test('gives the same lines and offsets byte by byte', () => {
    expect(split(splitEvery(encodeUtf8(text), 1)).lines.map(({ lastChunk: _, ...l }) => l)).toEqual(expected);
  });
});

test('a CRLF split across chunks ends the line in the chunk holding the LF', () => {
  expect(split([encodeUtf8('ab\r'), encodeUtf8('\ncd\n')]).lines).toEqual([
    { text: 'ab', lineStart: 0, lineEnd: 4, lastChunk: 1 },
    { text: 'cd', lineStart: 4, lineEnd: 7, lastChunk: 1 },
  ]);
});

test('a CR at a chunk end followed by other text ends the line in the CR chunk', () => {
  expect(split([encodeUtf8('ab\r'), encodeUtf8('cd\n')]).lines).toEqual([
    { text: 'ab', lineStart: 0, lineEnd: 3, lastChunk: 0 },
    { text: 'cd', lineStart: 3, lineEnd: 6, lastChunk: 1 },
  ]);
});

test('strips only the stream leading BOM and keeps its bytes in the offsets', () => {
  const { lines } = split([encodeUtf8('\uFEFFa\n\uFEFFb\n')]);
  expect(lines.map((l) => [l.text, l.lineStart])).toEqual([
    ['a', 3],
    ['\uFEFFb', 5],
  ]);
});

test('returns the unterminated last line, joined from its pieces', () => {
  const { lines, tail } = split([encodeUtf8('a\nbc'), encodeUtf8('de')]);
  expect(lines.map((l) => l.text)).toEqual(['a']);
  expect(tail && { text: new TextDecoder().decode(tail.bytes), lineStart: tail.lineStart }).toEqual({
    text: 'bcde',
    lineStart: 2,
  });
});

test('a CR as the very last byte ends the last line at end()', () => {
  const { lines, tail } = split([encodeUtf8('a\r')]);
  expect(lines).toEqual([{ text: 'a', lineStart: 0, lineEnd: 2, lastChunk: 0 }]);
  expect(tail).toBeNull();
});

test('a line of many pieces is assembled once, whatever the piece count', () => {
  const chunks = splitEvery(encodeUtf8(`${'x'.repeat(10_000)}\n`), 7);
  const { lines } = split(chunks);
  expect(lines.map((l) => [l.text.length, l.lineEnd])).toEqual([[10_000, 10_001]]);
});

test('text and bytes stay in step through multi-byte and invalid UTF-8 and mixed line endings', () => {
  const bytes = Uint8Array.from([
    ...encodeUtf8('日本\r\n😀\r'),
    0xff,
    0xc3,
    ...encodeUtf8('\né\n\n'),
    0xe6,
    0x97,
    ...encodeUtf8('\rx\n'),
  ]);
  for (const chunks of [[bytes], splitEvery(bytes, 1), splitEvery(bytes, 3), splitEvery(bytes, 5)]) {
    expect(split(chunks).lines.map((l) => [l.text, l.lineEnd])).toEqual([
      ['日本', 8],
      ['😀', 13],
      ['\uFFFD\uFFFD', 16],
      ['é', 19],
      ['', 20],
      ['\uFFFD', 23],
      ['x', 25],
    ]);
  }
});

test.each(EOLS)('a chunk whose last $name comes long before its end holds the rest, in any chunking', ({ eol }) => {
  // Tails longer than the few hundred bytes read one by one are searched another way.
  const long = 'x'.repeat(700);
  const text = `é${eol}${long}${eol}${eol}ü${long}${eol}end`;
  const whole = split([encodeUtf8(text)]);
  expect(whole.lines.map((l) => l.text)).toEqual(['é', long, '', `ü${long}`]);
  expect(new TextDecoder().decode(whole.tail?.bytes)).toBe('end');
  for (const size of [1, 300, 701, 1000]) {
    const pieces = split(splitEvery(encodeUtf8(text), size));
    expect(
      pieces.lines.map(({ lastChunk: _, ...l }) => l),
      `${size}-byte chunks`,
    ).toEqual(whole.lines.map(({ lastChunk: _, ...l }) => l));
  }
});

test('a long line held across chunks is read exactly whether its sampled bytes guess its characters right or wrong', () => {
  // Such a line of 4 KB and more is decoded as ASCII when five 64-byte samples of it are: here
  // the non-ASCII and invalid bytes sit between the samples, or only in them.
  const ascii = 'x'.repeat(5_000);
  const between = Uint8Array.from([
    ...encodeUtf8(`${ascii.slice(0, 1_000)}é${ascii.slice(0, 2_000)}`),
    0xff,
    ...encodeUtf8(`${ascii.slice(0, 2_000)}\n${ascii.slice(0, 100)}\n`),
  ]);
  const inSamples = encodeUtf8(`日${ascii}\n${ascii}😀\n`);
  const allAscii = encodeUtf8(`${ascii}\n${ascii}\n`);
  for (const bytes of [
    between,
    inSamples,
    allAscii,
    Uint8Array.from([...inSamples, ...between, ...allAscii, ...between]),
  ]) {
    const expected = new TextDecoder().decode(bytes).split('\n').slice(0, -1);
    for (const chunks of [[bytes], splitEvery(bytes, 4_500), splitEvery(bytes, 999)]) {
      expect(split(chunks).lines.map((l) => l.text)).toEqual(expected);
    }
  }
});
