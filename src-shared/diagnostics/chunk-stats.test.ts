import { describe, expect, it } from 'vitest';
import { chunkingBudget } from '../envelope/budget';
import { DIALECT_REGISTRY } from '../dialects/registry';
import type { Envelope } from '../envelope/types';

const isChunked = (dialect: string): boolean => DIALECT_REGISTRY.get(dialect)?.chunked === true;
import { decodeBytes, decodeLegs } from '../pipeline/session-decoder';
import { seededRandom, splitEvery } from '../testing/chunking';
import { listSseFixtures, readFixture, readManifest } from '../../src-main/testing/fixtures';
import { frameOf } from '../testing/frames';
import { UNDERFULL_LIST_CAP } from './chunk-fullness';
import { createChunkStats } from './chunk-stats';
import { measureText } from '../envelope/budget';

const AGENT = 'aaaaaaaa-0000-4000-8000-000000000000';

function makeEnvelope(seq: number, fields: Partial<Envelope> = {}): Envelope {
  return {
    seq,
    frame: seq,
    leg: 0,
    dialect: 'json',
    agent: AGENT,
    type: 'text',
    final: false,
    delta: '',
    extras: {},
    byteStart: 0,
    byteEnd: 0,
    receivedAt: 0,
    ...fields,
  };
}

/** Feed envelopes of one leg, each in its own frame carrying its JSON serialisation. */
function feed(envelopes: Partial<Envelope>[], budget = 2048) {
  const stats = createChunkStats({ budget, isChunked });
  envelopes.forEach((fields, seq) => {
    const e = makeEnvelope(seq, fields);
    const frame = frameOf(
      JSON.stringify({ type: e.type, agent: e.agent, final: e.final, delta: e.delta, ...e.extras }),
      seq,
    );
    stats.onEnvelope(e, frame);
  });
  return stats.snapshot();
}

/** A buffered payload split the way the chunking algorithm of docs/protocols/json-envelopes.md would, at `sizes` UTF-8 bytes per chunk. */
function chunked(
  type: string,
  payload: string,
  sizes: number[],
  extras: Record<string, unknown> = {},
): Partial<Envelope>[] {
  const bytes = new TextEncoder().encode(payload);
  const decoder = new TextDecoder();
  const out: Partial<Envelope>[] = [];
  let at = 0;
  sizes.forEach((size, i) => {
    out.push({ type, delta: decoder.decode(bytes.subarray(at, at + size)), final: i === sizes.length - 1, extras });
    at += size;
  });
  expect(at).toBe(bytes.length);
  return out;
}

const max = (type: string, extras: Record<string, unknown> = {}) =>
  chunkingBudget({ type, agent: AGENT, extras }).maxDeltaBytes;

describe('measureText', () => {
  const encoded = (text: string): number => new TextEncoder().encode(text).length;

  it('counts the UTF-8 bytes and the bytes JSON.stringify writes inside the quotes, for any string, short or long', () => {
    const random = seededRandom(5);
    const alphabet = [
      'a',
      '"',
      '\\',
      '\n',
      '\r',
      '\t',
      '\b',
      '\f',
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      'é',
      '日',
      '\u2028',
      '😀',
      '\ud800',
      '\udc00',
      '/',
      '\ufffd',
    ];
    const out = { bytes: 0, escapedBytes: 0 };
    for (let n = 0; n < 2000; n++) {
      // Lengths on both sides of the short-text loop's limit.
      const length = n % 10 === 0 ? 200 + Math.floor(random() * 200) : Math.floor(random() * 20);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      measureText(text, out);
      expect(out.bytes, JSON.stringify(text)).toBe(encoded(text));
      expect(out.escapedBytes, JSON.stringify(text)).toBe(encoded(JSON.stringify(text)) - 2);
      // Without escapes: the same bytes; then with them again, not the remembered NaN.
      expect(measureText(text, out, false).bytes).toBe(encoded(text));
      expect(measureText(text, out).escapedBytes).toBe(encoded(JSON.stringify(text)) - 2);
    }
  });

  it('measures the empty string right after a long text, which it does not remember', () => {
    const out = { bytes: 0, escapedBytes: 0 };
    expect(measureText('é'.repeat(1000), out).bytes).toBe(2000);
    expect(measureText('', out)).toEqual({ bytes: 0, escapedBytes: 0 });
  });
});

describe('chunk fullness against the seed algorithm', () => {
  it('counts full non-last chunks and ignores the last one', () => {
    const m = max('tool_result', { id: 't1', name: 'read' });
    const s = feed(chunked('tool_result', 'x'.repeat(2 * m + 10), [m, m, 10], { id: 't1', name: 'read' }));
    expect(s.fullness).toEqual({
      chunks: 2,
      full: 2,
      underfull: 0,
      overfull: 0,
      meanFullness: 1,
      minFullness: 1,
      irregularChunks: [],
    });
  });

  it('counts a chunk short only by the next character that did not fit as full (UTF-8 boundary)', () => {
    const m = max('meta_final');
    const payload = `${'a'.repeat(m - 2)}😀tail`;
    const s = feed(chunked('meta_final', payload, [m - 2, 8]));
    expect(s.fullness).toMatchObject({ chunks: 1, full: 1, underfull: 0 });
  });

  it('flags a non-last chunk that is not full: not chunked by this algorithm', () => {
    const m = max('meta_final');
    const s = feed(chunked('meta_final', 'b'.repeat(m), [m - 2, 2]));
    expect(s.fullness).toMatchObject({
      chunks: 1,
      full: 0,
      underfull: 1,
      irregularChunks: [{ leg: 0, envelope: 0, agent: AGENT, type: 'meta_final', deltaBytes: m - 2, maxDeltaBytes: m }],
    });
    expect(s.fullness.minFullness).toBeCloseTo((m - 2) / m);
  });

  it('flags a non-last chunk over the budget as overfull', () => {
    const m = max('meta_final');
    const s = feed(chunked('meta_final', 'c'.repeat(m + 20), [m + 10, 10]));
    expect(s.fullness).toMatchObject({ chunks: 1, full: 0, overfull: 1 });
    expect(s.fullness.irregularChunks).toHaveLength(1);
  });

  it('does not measure the text part of a multimodal tool_result, which an image and an empty final follow', () => {
    const extras = { id: 't1', name: 'chart' };
    const s = feed([
      { type: 'tool_result', delta: 'Rendered', extras },
      { type: 'tool_result_image', delta: '', extras: { ...extras, src: '/img', media_type: 'image/png' } },
      { type: 'tool_result', delta: '', final: true, extras },
    ]);
    expect(s.fullness.chunks).toBe(0);
  });

  it('does not measure a chunk whose payload is cut off by another id', () => {
    const s = feed([
      { type: 'tool_call', delta: '{"a":', extras: { id: 't1', name: 'x' } },
      { type: 'tool_call', delta: '{}', final: true, extras: { id: 't2', name: 'x' } },
    ]);
    expect(s.fullness.chunks).toBe(0);
  });

  it('never measures streamed deltas, citations or images', () => {
    const s = feed([
      { type: 'text', delta: 'a' },
      { type: 'text', delta: 'b' },
      { type: 'citation', delta: 'c', extras: { citation_type: 'char_location' } },
      { type: 'citation', delta: 'd', final: true, extras: { citation_type: 'char_location' } },
    ]);
    expect(s.fullness.chunks).toBe(0);
  });

  it(`lists at most ${UNDERFULL_LIST_CAP} irregular chunks but counts them all`, () => {
    const envelopes: Partial<Envelope>[] = [];
    for (let i = 0; i < UNDERFULL_LIST_CAP + 5; i++) envelopes.push({ type: 'meta_todo', delta: 'short' });
    envelopes.push({ type: 'meta_todo', delta: 'end', final: true });
    const s = feed(envelopes);
    expect(s.fullness.underfull).toBe(UNDERFULL_LIST_CAP + 5);
    expect(s.fullness.irregularChunks).toHaveLength(UNDERFULL_LIST_CAP);
  });
});

describe('sizes and overhead per type', () => {
  it('separates payload bytes from envelope overhead and measures escaping inflation', () => {
    const s = feed([{ type: 'tool_result', delta: 'say "hi"\n', final: true, extras: { id: 't1', name: 'echo' } }]);
    const wire = JSON.stringify({
      type: 'tool_result',
      agent: AGENT,
      final: true,
      delta: 'say "hi"\n',
      id: 't1',
      name: 'echo',
    }).length;
    expect(s.byType).toEqual([
      {
        dialect: 'json',
        type: 'tool_result',
        envelopes: 1,
        wireBytes: wire,
        payloadBytes: 9,
        overheadBytes: wire - 9,
        escapedPayloadBytes: 12,
        escapingInflation: 12 / 9,
        overBudget: 0,
      },
    ]);
    expect(s.payloadBytes).toMatchObject({ count: 1, min: 9, max: 9 });
  });

  it('counts a frame that carries several envelopes once', () => {
    const stats = createChunkStats({ isChunked });
    const frame = frameOf('<content-block-tool_result id="t1">…</content-block-tool_result>', 0);
    stats.onEnvelope(makeEnvelope(0, { dialect: 'xml', type: 'tool_result', delta: 'text' }), frame);
    stats.onEnvelope(makeEnvelope(1, { dialect: 'xml', type: 'tool_result_image', delta: '' }), frame);
    const s = stats.snapshot();
    expect(s.byType.map((t) => [t.type, t.wireBytes, t.escapedPayloadBytes])).toEqual([
      ['tool_result', new TextEncoder().encode(frame.data).length, undefined],
      ['tool_result_image', 0, undefined],
    ]);
  });

  it('counts the bytes of XML text deltas, verbatim or unescaped, whatever their characters', () => {
    const deltas = ['héllo 日本 😀 and more than a few characters', 'a\\nb \\\\ c', 'x'];
    const items = ['<content-block-text>', ...deltas];
    const head = new TextEncoder().encode(items.map((item) => `data: ${item}\n\n`).join(''));
    // A lone continuation byte: invalid UTF-8 in the last delta, decoded as U+FFFD.
    const bytes = new Uint8Array([
      ...head,
      ...new TextEncoder().encode('data: '),
      0x80,
      ...new TextEncoder().encode('\n\ndata: </content-block-text>\n\n'),
    ]);
    const text = decodeBytes(bytes, { format: 'xml' }).stats.byType.find((t) => t.type === 'text');
    const unescaped = ['héllo 日本 😀 and more than a few characters', 'a\nb \\ c', 'x', '\ufffd'];
    expect(text?.payloadBytes).toBe(unescaped.reduce((n, d) => n + new TextEncoder().encode(d).length, 0));
  });

  it('counts envelopes over the budget per type', () => {
    const s = feed([{ type: 'meta_final', delta: 'x'.repeat(100), final: true }], 64);
    expect(s.byType[0]?.overBudget).toBe(1);
  });

  it('counts control envelopes by kind and keeps them out of the payload sizes', () => {
    const s = feed([
      { type: '[DONE]', final: true, control: 'done' },
      { type: 'error_frame', delta: 'boom', final: true, control: 'error-frame' },
    ]);
    expect(s.controlEnvelopes).toEqual({ done: 1, 'error-frame': 1 });
    expect(s.byType).toEqual([]);
    expect(s.payloadBytes.count).toBe(0);
  });
});

describe('chunks, frames and timing', () => {
  it('counts frames per network chunk, including chunks that complete none, and frames split across chunks', () => {
    const stats = createChunkStats({ isChunked });
    for (let i = 0; i < 5; i++) stats.onChunk(10, i * 10, 0);
    stats.onFrame(frameOf('a', 0, { chunkFirst: 0, chunkLast: 0, receivedAt: 0 }), 0);
    stats.onFrame(frameOf('b', 1, { chunkFirst: 0, chunkLast: 0, receivedAt: 0 }), 0);
    stats.onFrame(frameOf('c', 2, { chunkFirst: 1, chunkLast: 3, receivedAt: 30 }), 0);
    const s = stats.snapshot();
    // Chunks 0..4 complete 2, 0, 0, 1 and 0 frames.
    expect(s.framesPerChunk).toMatchObject({
      count: 5,
      min: 0,
      max: 2,
      buckets: [
        { lo: 0, hi: 1, count: 3 },
        { lo: 1, hi: 2, count: 1 },
        { lo: 2, hi: 4, count: 1 },
      ],
    });
    expect(s).toMatchObject({ frames: 3, splitFrames: 1 });
    expect(s.legs[0]).toMatchObject({ chunks: 5, bytes: 50, frames: 3, splitFrames: 1 });
    expect(s.chunkBytes).toMatchObject({ count: 5, min: 10, max: 10 });
    expect(s.frameGapMs).toMatchObject({ count: 2, min: 0, max: 30 });
  });

  it('gives the same snapshot twice (pending counts are not consumed)', () => {
    const stats = createChunkStats({ isChunked });
    stats.onChunk(10, 0, 0);
    stats.onFrame(frameOf('a', 0, { chunkFirst: 0, chunkLast: 0 }), 0);
    expect(stats.snapshot()).toEqual(stats.snapshot());
    expect(stats.snapshot().framesPerChunk.count).toBe(1);
  });

  it('measures time to the first envelope from the first chunk of each leg', () => {
    const stats = createChunkStats({ isChunked });
    stats.onChunk(10, 1000, 0);
    stats.onEnvelope(makeEnvelope(0, { receivedAt: 1250 }), undefined);
    stats.onEnvelope(makeEnvelope(1, { receivedAt: 1300 }), undefined);
    stats.onChunk(10, 5000, 1);
    stats.onEnvelope(makeEnvelope(2, { leg: 1, receivedAt: 5040 }), undefined);
    expect(
      stats.snapshot().legs.map((l) => [l.leg, l.firstChunkAt, l.firstEnvelopeAt, l.timeToFirstEnvelope, l.envelopes]),
    ).toEqual([
      [0, 1000, 1250, 250, 2],
      [1, 5000, 5040, 40, 1],
    ]);
  });

  it('measures gaps between frames within a leg only', () => {
    const stats = createChunkStats({ isChunked });
    stats.onFrame(frameOf('a', 0, { receivedAt: 100 }), 0);
    stats.onFrame(frameOf('b', 1, { receivedAt: 105 }), 0);
    stats.onFrame(frameOf('c', 0, { receivedAt: 9000 }), 1);
    expect(stats.snapshot().frameGapMs).toMatchObject({ count: 1, min: 5, max: 5 });
  });
});

describe('chunk statistics of the upstream fixtures', () => {
  const manifest = readManifest();
  const files = listSseFixtures();
  const jsonFiles = files.filter((f) => manifest[f]?.kind === 'json');

  it.each(files)('%s: every byte and event is counted', (file) => {
    const bytes = readFixture(file);
    const { stats } = decodeBytes(bytes);
    expect(stats.legs).toHaveLength(1);
    expect(stats.legs[0]).toMatchObject({ chunks: 1, bytes: bytes.length, frames: manifest[file]?.sse_events });
    expect(stats.frameBytes.mean * stats.frameBytes.count).toBeCloseTo(bytes.length, 6);
    expect(stats.framesPerChunk).toMatchObject({ count: 1, min: manifest[file]?.sse_events });
  });

  it.each(jsonFiles)('%s: envelopes over 2048 bytes per type are the ones MANIFEST counts', (file) => {
    const { stats } = decodeBytes(readFixture(file));
    const over = Object.fromEntries(stats.byType.filter((t) => t.overBudget > 0).map((t) => [t.type, t.overBudget]));
    // MANIFEST files the router's error frame (no type) under "null"; it is a control frame here.
    const expected = Object.fromEntries(
      Object.entries(manifest[file]?.over_2048_by_type ?? {}).filter(([type]) => type !== 'null'),
    );
    expect(over).toEqual(expected);
  });

  it.each(jsonFiles)('%s: every chunked payload was cut by the seed algorithm (all non-last chunks full)', (file) => {
    const { fullness } = decodeBytes(readFixture(file)).stats;
    expect(fullness.underfull + fullness.overfull).toBe(0);
    expect(fullness.full).toBe(fullness.chunks);
  });

  it('measures the chunked payloads of the fixtures that have them', () => {
    const measured = Object.fromEntries(
      jsonFiles
        .map((f): [string, number] => [f, decodeBytes(readFixture(f)).stats.fullness.chunks])
        .filter(([, n]) => n > 0),
    );
    expect(measured).toEqual({
      'example_1.agent_base.json.sse': 9,
      'example_1.json.sse': 8,
      'frontend_tools_chunked.json.sse': 4,
      'frontend_tools_resume.agent_base.json.sse': 4,
      'json_stream.agent_base.json.sse': 1,
      'multi_agent.json.sse': 4,
      'probe_citations.agent_base.json.sse': 1,
      'probe_escaping.json.sse': 1,
      'retry_midstream.agent_base.json.sse': 1,
    });
  });

  it('probe_escaping.json.sse: escaping inflates text deltas on the wire', () => {
    const text = decodeBytes(readFixture('probe_escaping.json.sse')).stats.byType.find((t) => t.type === 'text');
    expect(text?.escapingInflation).toBeGreaterThan(1);
    expect(text?.overheadBytes).toBeGreaterThan((text?.escapedPayloadBytes ?? 0) - (text?.payloadBytes ?? 0));
  });

  it('byte-by-byte delivery splits every multi-byte frame and completes at most one frame per chunk', () => {
    const bytes = readFixture('json_stream.json.sse');
    const { stats } = decodeLegs([splitEvery(bytes, 1).map((b) => ({ bytes: b }))]);
    expect(stats.splitFrames).toBe(stats.frames);
    expect(stats.framesPerChunk).toMatchObject({ count: bytes.length, max: 1 });
    expect(stats.framesPerChunk.mean * stats.framesPerChunk.count).toBeCloseTo(stats.frames, 6);
    expect(stats.chunkBytes).toMatchObject({ count: bytes.length, min: 1, max: 1 });
  });

  it('two legs keep their own timing', () => {
    const legs = ['frontend_tools.json.sse', 'frontend_tools_resume.json.sse'].map((f, i) => [
      { bytes: readFixture(f), receivedAt: 1000 * (i + 1) },
    ]);
    const { stats } = decodeLegs(legs);
    expect(stats.legs.map((l) => [l.leg, l.firstChunkAt, l.timeToFirstEnvelope])).toEqual([
      [0, 1000, 0],
      [1, 2000, 0],
    ]);
  });
});
