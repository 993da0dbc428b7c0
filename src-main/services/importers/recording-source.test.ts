import { describe, expect, it, vi } from 'vitest';
import type * as formatModule from '../../../src-shared/recording/format';
import { chunkRecord, parseRecord, recordLine } from '../../../src-shared/recording/format';
import { chunkOfLeg } from './recording-source';

// The full parse, watched: a chunk record in the recorder's layout is read without it.
vi.mock('../../../src-shared/recording/format', async (original) => {
  const format = await original<typeof formatModule>();
  return { ...format, parseRecord: vi.fn(format.parseRecord) };
});

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const line = recordLine(chunkRecord(1, 1_700_000_000_123.5, encode('data: {"type":"text"}\n\n'), 4, 96)).slice(0, -1);
const expected = (parseRecord(line) as { record: unknown }).record;

describe('chunkOfLeg', () => {
  it.each([
    ['without its line ending', ''],
    ['with LF, as a record range read back from the file ends', '\n'],
    ['with CRLF', '\r\n'],
  ])("reads a chunk record in the recorder's layout %s without the full parse", (_name, ending) => {
    vi.mocked(parseRecord).mockClear();
    expect(chunkOfLeg(encode(line + ending), 1)).toEqual(expected);
    expect(chunkOfLeg(encode(line + ending), 2)).toBeNull(); // another leg's
    expect(parseRecord).not.toHaveBeenCalled();
  });

  it('reads any other layout by the full parse, to the same record', () => {
    const spaced = line.replace('"leg":1', '"leg": 1');
    vi.mocked(parseRecord).mockClear();
    expect(chunkOfLeg(encode(`${spaced}\n`), 1)).toEqual(expected);
    expect(parseRecord).toHaveBeenCalledTimes(1);
  });

  it('a line that is no chunk record of the leg gives null', () => {
    const leg = recordLine({
      type: 'leg',
      leg: 1,
      t: 0,
      request: { method: 'GET', url: 'http://x/', headers: [], body: null },
    });
    expect(chunkOfLeg(encode(leg), 1)).toBeNull();
    expect(chunkOfLeg(encode('{"type":"chunk","leg":1,"t":0,"bytes":"%%%%"}\n'), 1)).toBeNull();
  });
});
