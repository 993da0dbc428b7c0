/**
 * The raw-bytes pane: exact bytes as hex with offsets and as text with the invisible made
 * visible. Offsets are stream offsets (the leg's byte position), not offsets in the slice.
 */

export function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export interface HexLine {
  /** Stream offset of the first byte of the line. */
  readonly offset: number;
  /** The bytes of this line (up to `width`). */
  readonly bytes: Uint8Array;
}

export function hexLines(bytes: Uint8Array, baseOffset: number, width = 16): HexLine[] {
  const lines: HexLine[] = [];
  // Lines start at multiples of `width` in the stream, like a hexdump of the whole stream.
  let start = 0;
  const misalign = baseOffset % width;
  if (misalign !== 0) {
    const first = Math.min(bytes.length, width - misalign);
    lines.push({ offset: baseOffset, bytes: bytes.subarray(0, first) });
    start = first;
  }
  for (; start < bytes.length; start += width) {
    lines.push({ offset: baseOffset + start, bytes: bytes.subarray(start, start + width) });
  }
  return lines;
}

export function hexOffset(offset: number): string {
  return offset.toString(16).padStart(8, '0');
}

export function hexByte(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

/** The character shown for a byte in the hexdump's text column: printable ASCII or a dot. */
export function asciiCell(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '·';
}

export interface TextToken {
  readonly text: string;
  /** An escaped control character (`\r`, `\n`, `\t`, `\x1b` …), shown dimmed. */
  readonly control: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

/**
 * Bytes as readable text: UTF-8 decoded (invalid sequences become U+FFFD), with control
 * characters shown as escapes. A line break follows every LF, and every CR not followed by
 * LF, so SSE lines stay lines on screen.
 */
export function visibleText(bytes: Uint8Array): TextToken[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const tokens: TextToken[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain) tokens.push({ text: plain, control: false });
    plain = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = ch.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      plain += ch;
      continue;
    }
    flush();
    const escaped = ESCAPES[ch] ?? `\\x${code.toString(16).padStart(2, '0')}`;
    const breaks = ch === '\n' || (ch === '\r' && text[i + 1] !== '\n');
    tokens.push({ text: escaped, control: true });
    if (breaks) plain += '\n';
  }
  flush();
  return tokens;
}

export interface MarkRun<M> {
  readonly mark: M;
  /** Indexes into the line's bytes, end exclusive. */
  readonly from: number;
  readonly to: number;
}

/** Consecutive bytes of a line with the same mark, so a line renders as a few spans, not one per byte. */
export function markRuns<M>(line: HexLine, markOf: (offset: number) => M): MarkRun<M>[] {
  const runs: MarkRun<M>[] = [];
  let from = 0;
  for (let i = 1; i <= line.bytes.length; i++) {
    const current = markOf(line.offset + from);
    if (i === line.bytes.length || markOf(line.offset + i) !== current) {
      runs.push({ mark: current, from, to: i });
      from = i;
    }
  }
  return runs;
}
