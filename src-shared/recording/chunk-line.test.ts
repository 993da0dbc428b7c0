import { describe, expect, it } from 'vitest';
import { isPaddedBase64Bytes, parseChunkLine } from './chunk-line';
import { chunkRecord, isPaddedBase64, parseRecord, recordLine } from './format';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** What the full parse makes of a line: the record, or null when it is not a chunk record. */
function fullParse(line: string): unknown {
  const parsed = parseRecord(line);
  return parsed.kind === 'record' && parsed.record.type === 'chunk' ? parsed.record : null;
}

describe('parseChunkLine', () => {
  const next = random(3);
  const times = [0, 17, 1_700_000_000_123, 12.5, 0.001, 1e21, 1234567890123456];
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) {
    const bytes = Uint8Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 256));
    const t = times[i % times.length] as number;
    lines.push(recordLine(chunkRecord(i % 3, t, bytes, i, i * 7)).slice(0, -1));
  }

  it("reads the recorder's chunk records exactly as the full parse does", () => {
    for (const line of lines) {
      expect(parseChunkLine(encode(line), 0, line.length)).toEqual(fullParse(line));
      expect(parseChunkLine(encode(line), 0, line.length)).not.toBeNull();
    }
    // Inside a larger buffer, as the line splitter hands lines over.
    const padded = encode(`xx${lines[5] as string}\r\nyy`);
    expect(parseChunkLine(padded, 2, 2 + (lines[5] as string).length)).toEqual(fullParse(lines[5] as string));
  });

  it('leaves every other line to the full parse, and never reads a damaged one as another record', () => {
    const others = [
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QUJD"} ',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QUJ"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"Q=JD"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QU==","x":"AAAA"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"\\u0041BCD"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QUé="}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QU"D"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":0,"bytes":"QUJD\n"}',
      '{"type":"chunk","leg":-1,"seq":1,"offset":0,"t":0,"bytes":"QUJD"}',
      '{"type":"chunk","leg":01,"seq":1,"offset":0,"t":0,"bytes":"QUJD"}',
      '{"type":"chunk","leg":0,"seq":1.5,"offset":0,"t":0,"bytes":"QUJD"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":1e999,"bytes":"QUJD"}',
      '{"type":"chunk","leg":0,"seq":1,"offset":0,"t":.5,"bytes":"QUJD"}',
      '{"type":"chunk","leg":0,"offset":0,"seq":1,"t":0,"bytes":"QUJD"}',
      '{"type":"chunk", "leg":0,"seq":1,"offset":0,"t":0,"bytes":"QUJD"}',
      '{"type":"response","leg":0,"t":0,"status":200,"statusText":"OK","headers":[]}',
    ];
    for (const line of others) expect(parseChunkLine(encode(line), 0, encode(line).length)).toBeNull();
    // Random damage to valid lines: either left to the full parse or read as it reads it.
    for (let i = 0; i < 3000; i++) {
      const bytes = encode(lines[i % lines.length] as string);
      const at = Math.floor(next() * bytes.length);
      bytes[at] = next() < 0.5 ? Math.floor(next() * 128) : (bytes[Math.floor(next() * bytes.length)] as number);
      const read = parseChunkLine(bytes, 0, bytes.length);
      if (read) expect(read).toEqual(fullParse(new TextDecoder().decode(bytes)));
    }
  });
});

describe('isPaddedBase64Bytes', () => {
  it('judges bytes as isPaddedBase64 judges their text, at every length and place of padding', () => {
    const next = random(11);
    // Mostly the alphabet, so that valid text is common; padding, bytes outside it, and non-ASCII now and then.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const pick = (): string => {
      const r = next();
      if (r < 0.9) return alphabet.charAt(Math.floor(next() * 64));
      if (r < 0.95) return '=';
      if (r < 0.98) return '-_ \n"\\.'.charAt(Math.floor(next() * 7));
      return 'é';
    };
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = Array.from({ length: Math.floor(next() * 14) }, pick).join('');
      // Well-formed text with padding, then perhaps one character changed.
      if (i % 3 === 0) text = ['QUJD', 'QUI=', 'QQ==', ''][i % 4] as string;
      if (i % 6 === 0 && text.length > 0) {
        const at = Math.floor(next() * text.length);
        text = text.slice(0, at) + pick() + text.slice(at + 1);
      }
      const bytes = encode(`"${text}"`);
      const expected = isPaddedBase64(text);
      expect(isPaddedBase64Bytes(bytes, 1, bytes.length - 1), JSON.stringify(text)).toBe(expected);
      if (expected) valid++;
    }
    // Both answers are common: the comparison is not one-sided.
    expect(valid).toBeGreaterThan(3000);
    expect(valid).toBeLessThan(17_000);
  });
});
