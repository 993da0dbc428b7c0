import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../../testing/fixtures';
import { readProviderFixture } from '../../../testing/provider-streams';
import { createRawChunks } from './raw-chunks';
import { reframe, reframeLeg } from './reframe';
import { SpoolFile } from './spool-file';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('reframe', () => {
  it("gives one event's type, data and data lines back from exactly its bytes", () => {
    expect(reframe(utf8('event: delta\ndata: a\ndata: bc\n\n'), true)).toMatchObject({
      event: 'delta',
      data: 'a\nbc',
      dataLines: 2,
      maxDataLineBytes: 2,
    });
  });

  it('skips a BOM only at the start of the stream: mid-stream it is content', () => {
    expect(reframe(utf8('\uFEFFdata: x\n\n'), true).data).toBe('x');
    expect(reframe(utf8('\uFEFFdata: x\n\n'), false)).toMatchObject({ event: '', data: '' });
    expect(reframe(utf8('\uFEFFevent: e\ndata: x\n\n'), false).event).toBe('');
  });

  it('frames a whole leg again, chunk by chunk, into the frames decoding it gave', () => {
    const bytes = readFixture('example_1.json.sse');
    const raw = createRawChunks(new SpoolFile());
    for (let at = 0; at < bytes.length; at += 97) raw.append(bytes.subarray(at, at + 97), at);
    const expected = decodeBytes(bytes).frames[0] ?? [];
    const frames = reframeLeg(raw, 'sse');
    expect(frames.map((f) => [f.seq, f.event, f.data, f.byteStart, f.byteEnd])).toEqual(
      expected.map((f) => [f.seq, f.event, f.data, f.byteStart, f.byteEnd]),
    );
  });

  it('a line-framed leg (the AI SDK v4 data stream) is framed again by lines: each frame its line', () => {
    expect(reframe(utf8('\n0:"Hi"\n'), false, 'lines')).toMatchObject({ event: '', data: '0:"Hi"', dataLines: 1 });
    // As SSE, such a line is no field: framing it so would show no data at all.
    expect(reframe(utf8('0:"Hi"\n'), true).data).toBe('');
    const bytes = readProviderFixture('ai-sdk-ui/parallel-tools.txt');
    const raw = createRawChunks(new SpoolFile());
    for (let at = 0; at < bytes.length; at += 31) raw.append(bytes.subarray(at, at + 31), at);
    const expected = decodeBytes(bytes).frames[0] ?? [];
    expect(reframeLeg(raw, 'lines').map((f) => [f.seq, f.data, f.byteStart, f.byteEnd])).toEqual(
      expected.map((f) => [f.seq, f.data, f.byteStart, f.byteEnd]),
    );
  });
});
