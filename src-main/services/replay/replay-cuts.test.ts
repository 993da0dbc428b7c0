import { describe, expect, it } from 'vitest';
import { createSessionDecoder } from '../../../src-shared/pipeline/session-decoder';
import { chunkings } from '../../../src-shared/testing/chunking';
import { readFixture } from '../../testing/fixtures';
import {
  cutAfterFirstEvent,
  cutBeforeSecondEvent,
  historyAfter,
  nextDispatchPoint,
  STREAM_START,
  type ByteHistory,
} from './replay-cuts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

const EOLS = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
] as const;

/** Four events, one of two data lines, with `eol` line endings; `noise` adds a comment-only event and extra empty lines. */
function stream(eol: string, noise: boolean): Uint8Array {
  const extra = noise ? [': keep-alive', '', ''] : [];
  const lines = [
    'data: {"type":"text","agent":"a","final":false,"delta":"one"}',
    '',
    ...extra,
    'event: x',
    'data: two',
    'data: lines',
    '',
    'id: 3',
    'data: three',
    '',
    'data: [DONE]',
    '',
  ];
  return text(lines.map((line) => line + eol).join(''));
}

type Cut = (bytes: Uint8Array, history: ByteHistory) => number;

/**
 * Feeds `chunks` to the shared decoder in the parts `cut` chooses, as replay does; returns the
 * frames each part completed, per chunk, and the frames completed at the end.
 */
function partsOf(chunks: readonly Uint8Array[], cut: Cut): { perChunk: number[][]; atEnd: number } {
  let frames = 0;
  const leg = createSessionDecoder({ onFrame: () => frames++ }).startLeg();
  let history = STREAM_START;
  const perChunk = chunks.map((chunk) => {
    const parts: number[] = [];
    for (let offset = 0; offset < chunk.length;) {
      const rest = chunk.subarray(offset);
      const length = cut(rest, history);
      expect(length).toBeGreaterThan(0);
      expect(length).toBeLessThanOrEqual(rest.length);
      const before = frames;
      leg.push(rest.subarray(0, length));
      history = historyAfter(history, rest.subarray(0, length));
      parts.push(frames - before);
      offset += length;
    }
    return parts;
  });
  const before = frames;
  leg.end();
  return { perChunk, atEnd: frames - before };
}

describe('dispatch points', () => {
  it.each(EOLS)('are found after the empty line ending each event (%s)', (_name, eol) => {
    const bytes = text(`data: a${eol}${eol}data: b${eol}${eol}`);
    const first = nextDispatchPoint(bytes, STREAM_START);
    const second = nextDispatchPoint(bytes, STREAM_START, first);
    // A CR-ended empty line completes its event one byte later, when the reader knows no LF follows.
    const extra = eol === '\r' ? 1 : 0;
    expect(first).toBe(`data: a${eol}${eol}`.length + extra);
    // The last one would need the byte after the stream.
    expect(second).toBe(eol === '\r' ? -1 : bytes.length);
    expect(nextDispatchPoint(bytes, STREAM_START, bytes.length)).toBe(-1);
  });

  it('continue across deliveries through the byte history: a held CR completes with the next byte', () => {
    const held = historyAfter(STREAM_START, text('data: a\r\r'));
    expect(nextDispatchPoint(text('data: b\r\r'), held)).toBe(1);
    expect(nextDispatchPoint(text('\ndata: b\n\n'), historyAfter(STREAM_START, text('data: a\r\n\r')))).toBe(1);
    // An LF that ended an event before these bytes is no dispatch point in them.
    expect(nextDispatchPoint(text('data: b\n\n'), historyAfter(STREAM_START, text('data: a\n\n')))).toBe(9);
    // A CRLF split between two deliveries.
    expect(nextDispatchPoint(text('\n'), historyAfter(STREAM_START, text('data: a\r\n\r')))).toBe(1);
  });

  it('are not found inside a line or after a line that is not empty', () => {
    expect(nextDispatchPoint(text('data: a\ndata: b\r\ndata: c\rdata: d'), STREAM_START)).toBe(-1);
    expect(cutAfterFirstEvent(text('data: partial'), STREAM_START)).toBe(13);
  });
});

describe('cutting replayed chunks', () => {
  describe.each(EOLS)('with %s line endings', (_name, eol) => {
    const events = 4;
    const noisy = chunkings(stream(eol, true)).map((c) => [c.name, c.chunks] as const);
    const clean = chunkings(stream(eol, false)).map((c) => [c.name, c.chunks] as const);

    it.each(noisy)(
      'after the first event: at most one event per part, every event delivered (%s)',
      (_chunking, chunks) => {
        const { perChunk, atEnd } = partsOf(chunks, cutAfterFirstEvent);
        const parts = perChunk.flat();
        expect(Math.max(...parts)).toBeLessThanOrEqual(1);
        expect(parts.reduce((a, b) => a + b, 0) + atEnd).toBe(events);
      },
    );

    it.each(noisy)(
      'before the second event: at most one event per part, every event delivered (%s)',
      (_chunking, chunks) => {
        const { perChunk, atEnd } = partsOf(chunks, cutBeforeSecondEvent);
        expect(Math.max(...perChunk.flat())).toBeLessThanOrEqual(1);
        expect(perChunk.flat().reduce((a, b) => a + b, 0) + atEnd).toBe(events);
      },
    );

    it.each(clean)(
      'before the second event: a chunk is cut only where it would complete two (%s)',
      (_chunking, chunks) => {
        const { perChunk } = partsOf(chunks, cutBeforeSecondEvent);
        for (const parts of perChunk) if (parts.length > 1) expect(parts.reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
      },
    );
  });

  it('steps a real stream given as one block one event at a time', () => {
    const bytes = readFixture('multi_agent.json.sse');
    const { perChunk } = partsOf([bytes], cutAfterFirstEvent);
    expect(perChunk[0]).toEqual(new Array(173).fill(1));
  });
});
