import { describe, expect, it } from 'vitest';
import { asciiCell, decodeBase64, hexLines, hexOffset, markRuns, visibleText } from './bytes';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const render = (text: string | Uint8Array): string =>
  visibleText(typeof text === 'string' ? bytesOf(text) : text)
    .map((t) => (t.control ? `[${t.text}]` : t.text))
    .join('');

describe('raw bytes', () => {
  it('decodes base64 to the exact bytes', () => {
    expect([...decodeBase64('AP8Kgg==')]).toEqual([0, 255, 10, 130]);
  });

  it.each([
    ['LF', 'data: a\n\n', 'data: a[\\n]\n[\\n]\n'],
    ['CR', 'data: a\r\r', 'data: a[\\r]\n[\\r]\n'],
    ['CRLF', 'data: a\r\n\r\n', 'data: a[\\r][\\n]\n[\\r][\\n]\n'],
  ])('shows %s line endings and keeps lines as lines', (_name, input, expected) => {
    expect(render(input)).toBe(expected);
  });

  it('escapes tabs and other control characters, decodes UTF-8 and marks invalid bytes', () => {
    expect(render('a\tb\x00c\x1b')).toBe('a[\\t]b[\\x00]c[\\x1b]');
    expect(render('é✓')).toBe('é✓');
    expect(render(new Uint8Array([0x61, 0xff, 0x62]))).toBe('a\ufffdb');
  });

  it('lays out hex lines on 16-byte stream offsets, the first one short when misaligned', () => {
    const lines = hexLines(new Uint8Array(40), 0x1c);
    expect(lines.map((l) => [l.offset, l.bytes.length])).toEqual([
      [0x1c, 4],
      [0x20, 16],
      [0x30, 16],
      [0x40, 4],
    ]);
    expect(hexOffset(0x1c)).toBe('0000001c');
  });

  it('shows printable ASCII and dots in the text column', () => {
    expect([0x41, 0x20, 0x0a, 0x7f, 0xe2].map(asciiCell).join('')).toBe('A ···');
  });

  it('groups a line into runs of equally marked bytes', () => {
    const line = { offset: 100, bytes: new Uint8Array(8) };
    const runs = markRuns(line, (offset) => (offset >= 102 && offset < 105 ? 'env' : ''));
    expect(runs).toEqual([
      { mark: '', from: 0, to: 2 },
      { mark: 'env', from: 2, to: 5 },
      { mark: '', from: 5, to: 8 },
    ]);
  });
});
