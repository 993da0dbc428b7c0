/**
 * The framer over a corpus: every real upstream stream and seeded generated streams.
 * Counts come from MANIFEST.json (measured with an independent WHATWG reading); events are
 * compared with eventsource-parser; results must not depend on chunking.
 */
import { describe, expect, test } from 'vitest';
import { concatBytes } from '../bytes/held-bytes';
import type { RuleId } from '../diagnostics/rules';
import { chunkings, seededRandom } from '../testing/chunking';
import { listSseFixtures, readFixture, readManifest } from '../../src-main/testing/fixtures';
import { eventsourceParserEvents } from '../../src-main/testing/sse-references';
import { encodeUtf8 } from '../text/utf8';
import { frameChunks, type FramedStream } from './collect';
import type { Frame } from './types';

interface SimpleEvent {
  event: string;
  data: string;
  id: string;
}

/**
 * eventsource-parser's events, with a final CR flushed. It forgets an id given in a block
 * without data (see docs/reliability.md), so the generated streams give ids only in events
 * with data.
 */
function referenceEvents(chunks: readonly Uint8Array[]): SimpleEvent[] {
  return eventsourceParserEvents(chunks, { flushFinalCr: true });
}

function simple(frames: readonly Frame[]): SimpleEvent[] {
  return frames.map((f) => ({ event: f.event, data: f.data, id: f.id }));
}

/** A frame without the fields that legitimately depend on chunking. */
function withoutTiming(frames: readonly Frame[]): Omit<Frame, 'chunkFirst' | 'chunkLast' | 'receivedAt'>[] {
  return frames.map(({ chunkFirst: _f, chunkLast: _l, receivedAt: _r, ...rest }) => rest);
}

/** Frames (minus timing), diagnostics and summary (minus the chunk count) must all match. */
function expectChunkingInvariant(bytes: Uint8Array): FramedStream {
  const whole = frameChunks([bytes]);
  const expected = {
    frames: withoutTiming(whole.frames),
    diagnostics: whole.diagnostics,
    summary: { ...whole.summary, chunks: 0 },
  };
  for (const { name, chunks } of chunkings(bytes).slice(1)) {
    const result = frameChunks(chunks);
    const actual = {
      frames: withoutTiming(result.frames),
      diagnostics: result.diagnostics,
      summary: { ...result.summary, chunks: 0 },
    };
    expect(actual, name).toEqual(expected);
  }
  return whole;
}

const files = listSseFixtures();
const manifest = readManifest();

function count(result: FramedStream, rule: RuleId): number {
  return result.diagnostics.filter((d) => d.rule === rule).length;
}

describe('upstream fixtures', () => {
  test('every fixture has a manifest entry', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(manifest[file], file).toBeDefined();
  });

  describe.each(files)('%s', (file) => {
    const bytes = readFixture(file);
    const whole = frameChunks([bytes]);
    const entry = manifest[file];

    test('matches the manifest: events, ignored lines, data lines over 2048 bytes', () => {
      if (!entry) throw new Error(`no manifest entry for ${file}`);
      expect(whole.frames).toHaveLength(entry.sse_events);
      expect(count(whole, 'sse.ignored-line') + count(whole, 'sse.unknown-field')).toBe(entry.ignored_non_data_lines);
      expect(count(whole, 'sse.multi-line-data')).toBe(entry['multi_line_data_events']);
      expect(count(whole, 'sse.unterminated-event') > 0).toBe(entry['trailing_incomplete']);
      const json = whole.frames.filter((f) => f.data.startsWith('{'));
      expect(json.filter((f) => f.maxDataLineBytes > 2048)).toHaveLength(entry.json_lines_over_2048);
      expect(Math.max(0, ...json.map((f) => f.maxDataLineBytes))).toBe(entry.max_json_line_bytes);
      expect(whole.summary.bytes).toBe(bytes.length);
    });

    test('dispatches the same events as eventsource-parser', () => {
      expect(simple(whole.frames)).toEqual(referenceEvents([bytes]));
    });

    test('frames tile the stream', () => {
      let expectedStart = 0;
      for (const f of whole.frames) {
        expect(f.byteStart).toBe(expectedStart);
        expect(f.byteEnd).toBeGreaterThan(f.byteStart);
        expectedStart = f.byteEnd;
      }
    });

    test('gives identical frames and diagnostics whole, byte by byte and at seeded random cuts', () => {
      expectChunkingInvariant(bytes);
    });
  });

  describe('what the manifest says about the broken streams', () => {
    test('probe_escaping.xml.sse: a raw CR in a text delta cuts the line; the text after it is lost', () => {
      const result = frameChunks([readFixture('probe_escaping.xml.sse')]);
      const ignored = result.diagnostics.filter((d) => d.rule === 'sse.ignored-line');
      expect(ignored.map((d) => d.message.match(/lost: (".*?")\./)?.[1])).toEqual(['"\\\\nafter"', '"after "']);
      expect(result.frames.map((f) => f.data)).toEqual(expect.arrayContaining(['F:', 'R:']));
    });

    test('xml_stream_examples.captured.xml.sse: 146 events, 35 ignored lines, 981 characters lost, 8 empty events', () => {
      const bytes = readFixture('xml_stream_examples.captured.xml.sse');
      const result = frameChunks([bytes]);
      expect(result.frames).toHaveLength(146);
      const ignored = result.diagnostics.filter((d) => d.rule === 'sse.ignored-line');
      expect(ignored).toHaveLength(35);
      const decoder = new TextDecoder();
      const lost = ignored.reduce((n, d) => n + decoder.decode(bytes.subarray(d.at.byteStart, d.at.byteEnd)).length, 0);
      expect(lost).toBe(981);
      expect(result.frames.filter((f) => f.data === '')).toHaveLength(8);
      expect(result.frames.find((f) => f.data.startsWith('<content-block-meta_files>'))?.data).toBe(
        '<content-block-meta_files><![CDATA[{',
      );
    });

    test('xml_stream_examples.captured.xml.sse: events cut by an embedded blank line are flagged', () => {
      const result = frameChunks([readFixture('xml_stream_examples.captured.xml.sse')]);
      const early = result.diagnostics.filter((d) => d.rule === 'sse.early-dispatch');
      expect(early.length).toBeGreaterThan(0);
      for (const d of early) {
        const cut = result.frames[d.at.frame ?? -1];
        expect(cut?.byteEnd).toBe(d.at.byteEnd);
      }
      // "_DIR\n\nLet" was one item: its event is cut after "_DIR".
      expect(early.map((d) => result.frames[d.at.frame ?? -1]?.data)).toContain('_DIR');
    });

    test('generated streams have no ignored line, no early dispatch and no unterminated event', () => {
      for (const file of files.filter(
        (f) => f !== 'xml_stream_examples.captured.xml.sse' && f !== 'probe_escaping.xml.sse',
      )) {
        const rules = new Set(frameChunks([readFixture(file)]).diagnostics.map((d) => d.rule));
        expect(
          [...rules].filter((r) => r !== 'sse.oversize-line'),
          file,
        ).toEqual([]);
      }
    });
  });
});

const TEXT_PIECES = [
  'hello',
  ' wörld',
  '日本語のテキスト',
  '😀🎉',
  'a:b',
  ' ',
  '{"type":"text","agent":"a1","final":false,"delta":"x"}',
  '\uFEFF',
  'tab\there',
  '中文',
  'é',
];
const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xe6, 0x97], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80]];

/**
 * A seeded stream exercising every framing path: mixed LF / CR / CRLF endings, a BOM,
 * multi-byte UTF-8 (emoji, CJK) and invalid bytes, multi-line data, fields with and without
 * a colon or a space, comments, retry, ids (only in events with data, see referenceEvents),
 * unknown fields, lost payload lines, long lines and sometimes an unterminated tail.
 */
function generateStream(seed: number): Uint8Array {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const parts: Uint8Array[] = [];
  const text = (s: string) => parts.push(encodeUtf8(s));
  const eol = () => text(pick(['\n', '\r', '\r\n']));
  const line = (s: string) => {
    text(s);
    eol();
  };
  const payload = (): void => {
    const pieces = 1 + Math.floor(random() * 5);
    for (let i = 0; i < pieces; i++) {
      if (random() < 0.05) parts.push(Uint8Array.from(pick(INVALID_UTF8)));
      else text(pick(TEXT_PIECES));
    }
    if (random() < 0.03) text('長'.repeat(800));
  };
  if (random() < 0.3) text('\uFEFF');
  const events = 5 + Math.floor(random() * 25);
  for (let e = 0; e < events; e++) {
    const hasData = random() < 0.85;
    if (random() < 0.15) line(`: ${pick(TEXT_PIECES)}`);
    if (random() < 0.1) line(`x-${pick(['trace', 'span'])}: 1`);
    if (random() < 0.3) line(random() < 0.2 ? 'event' : `event: ${pick(['delta', 'done', 'ping', '事件'])}`);
    if (random() < 0.1) line(`retry: ${pick(['1000', '25', '1.5', 'soon'])}`);
    if (hasData && random() < 0.3) line(random() < 0.1 ? 'id: bad\0id' : `id: ${Math.floor(random() * 100)}`);
    const dataLines = hasData ? 1 + Math.floor(random() * (random() < 0.8 ? 1 : 3)) : 0;
    for (let d = 0; d < dataLines; d++) {
      const form = random();
      if (form < 0.05) {
        line('data');
        continue;
      }
      text(form < 0.2 ? 'data:' : 'data: ');
      payload();
      eol();
      if (random() < 0.05) line(pick(['continued text', '2. next step', '  "key": 1']));
    }
    if (dataLines > 0 && random() < 0.05) {
      // A payload holding a blank line: the event is dispatched early and the rest is lost.
      eol();
      line(pick(['The rest', '**', '3']));
    }
    const blanks = 1 + (random() < 0.15 ? 1 : 0);
    for (let b = 0; b < blanks; b++) eol();
  }
  if (random() < 0.3) {
    text('data: unterminated ');
    payload();
    if (random() < 0.5) eol();
  }
  return concatBytes(parts);
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

describe('generated streams', () => {
  test('the generator covers the paths it claims to', () => {
    const rules = new Set<RuleId>();
    let frames = 0;
    for (const seed of SEEDS) {
      const result = frameChunks([generateStream(seed)]);
      frames += result.frames.length;
      for (const d of result.diagnostics) rules.add(d.rule);
    }
    expect(frames).toBeGreaterThan(400);
    expect([...rules].sort()).toEqual([
      'sse.early-dispatch',
      'sse.event-without-data',
      'sse.id-with-nul',
      'sse.ignored-line',
      'sse.invalid-retry',
      'sse.invalid-utf8',
      'sse.multi-line-data',
      'sse.oversize-line',
      'sse.unknown-field',
      'sse.unterminated-event',
    ]);
  });

  test.each(SEEDS)('seed %i: same events as eventsource-parser under every chunking', (seed) => {
    const bytes = generateStream(seed);
    for (const { name, chunks } of chunkings(bytes)) {
      expect(simple(frameChunks(chunks).frames), name).toEqual(referenceEvents(chunks));
    }
  });

  test.each(SEEDS)('seed %i: identical frames and diagnostics under every chunking', (seed) => {
    const whole = expectChunkingInvariant(generateStream(seed));
    expect(whole.frames.length).toBeGreaterThan(0);
  });
});
