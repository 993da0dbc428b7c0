import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeLegs, type ChunkInput } from '../../pipeline/session-decoder';
import { chunkings } from '../../testing/chunking';
import { nestedArrayText } from '../../testing/deep-json';
import { sniffFrame } from '../sniff';
import { DIALECT_REGISTRY } from '../registry';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../resources/fixtures/inline');
const read = (name: string): Uint8Array => new Uint8Array(readFileSync(join(DIR, name)));
const encoder = new TextEncoder();
const events = (...list: unknown[]): Uint8Array =>
  encoder.encode(list.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''));

const start = (id: string, type: string, metadata: Record<string, unknown> = {}) => ({
  type: 'SEGMENT_START',
  segment_id: id,
  segment_type: type,
  payload: { metadata },
});
const content = (id: string, delta: string) => ({ type: 'SEGMENT_CONTENT', segment_id: id, payload: { delta } });
const end = (id: string) => ({ type: 'SEGMENT_END', segment_id: id, payload: {} });

function decode(chunks: readonly Uint8Array[]) {
  const result = decodeLegs([chunks.map((bytes): ChunkInput => ({ bytes }))]);
  return {
    formats: result.formats,
    blocks: result.blocks.map((b) => ({
      kind: b.kind,
      status: b.status,
      toolId: b.toolId,
      name: b.name,
      segments: b.segments,
    })),
    diagnostics: result.diagnostics.map((d) => [d.rule, d.message, d.at]),
  };
}

describe('the segment-events dialect', () => {
  it('ends a stream whose every segment ended (its wire has no terminal event), and not one left open', () => {
    const terminalOf = (bytes: Uint8Array) => decodeLegs([[{ bytes }]]).ends[0]?.stream.terminal?.event;
    expect(terminalOf(events(start('seg_1', 'text'), content('seg_1', 'hi'), end('seg_1')))).toBe(
      'the end of its last segment',
    );
    expect(terminalOf(events(start('seg_1', 'text'), content('seg_1', 'hi')))).toBeUndefined();
  });

  it('is detected from its first event, and claims nothing else', () => {
    expect(DIALECT_REGISTRY.detect(sniffFrame({ event: '', data: JSON.stringify(start('seg_1', 'text')) }))?.id).toBe(
      'segments',
    );
    expect(DIALECT_REGISTRY.detect(sniffFrame({ event: '', data: '{"type":"SEGMENT_START"}' }))?.id).toBeUndefined();
    expect(
      DIALECT_REGISTRY.detect(sniffFrame({ event: '', data: '{"type":"text","agent":"a","final":false,"delta":"x"}' }))
        ?.id,
    ).toBe('json');
  });

  it('gives one block per segment, with the output contract of the inline stage', () => {
    const result = decode([read('segment-events.sse')]);
    expect(result.formats).toEqual(['segments']);
    expect(result.diagnostics).toEqual([]);
    expect(
      result.blocks
        .map((b) => b.segments?.[0])
        .map((s) => ({ id: s?.id, type: s?.type, metadata: s?.metadata, complete: s?.complete })),
    ).toEqual([
      { id: 'seg_1', type: 'text', metadata: {}, complete: true },
      { id: 'seg_2', type: 'write_file', metadata: { path: '/tmp/a.py' }, complete: true },
      { id: 'seg_3', type: 'run_bash', metadata: {}, complete: true },
      { id: 'seg_4', type: 'tool_call', metadata: { tool_name: 'search' }, complete: true },
      { id: 'seg_5', type: 'reasoning', metadata: {}, complete: true },
    ]);
    expect(result.blocks[1]?.segments?.[0]?.content).toBe("print('hi')\\nprint('naïve ✓ 😀')\n");
    expect(result.blocks.every((b) => b.kind === 'segment' && b.status === 'complete')).toBe(true);
  });

  it.each(['segment-events.sse', 'segment-events-malformed.sse'])(
    'decodes %s the same whole, byte by byte and at seeded random cuts',
    (name) => {
      const bytes = read(name);
      const expected = decode([bytes]);
      for (const { name: how, chunks } of chunkings(bytes)) expect(decode(chunks), how).toEqual(expected);
    },
  );

  it('keeps every segment of a broken stream, as received', () => {
    const result = decode([read('segment-events-malformed.sse')]);
    expect(result.blocks.map((b) => [b.toolId, b.name, b.segments?.[0]?.content, b.status])).toEqual([
      ['seg_1', 'write_file', 'x = 1\n', 'complete'],
      ['seg_1', undefined, 'late content\n', 'complete'],
      ['seg_9', undefined, 'content of a segment never started', 'complete'],
      ['seg_2', 'diagram', 'graph TD; A-->B', 'complete'],
      ['seg_3', 'run_bash', 'sleep 100', 'open'],
    ]);
  });
});

describe('segment-events diagnostics', () => {
  const rulesOf = (bytes: Uint8Array): string[] => decode([bytes]).diagnostics.map((d) => d[0] as string);
  const clean = events(
    start('seg_1', 'write_file', { path: '/a' }),
    content('seg_1', 'x'),
    end('seg_1'),
    start('seg_2', 'run_bash'),
    content('seg_2', 'ls'),
    end('seg_2'),
  );

  it('raises none for a well-formed stream', () => {
    expect(rulesOf(clean)).toEqual([]);
  });

  it.each([
    [
      'segments.unknown-id',
      events(content('seg_7', 'x')),
      events(start('seg_7', 'text'), content('seg_7', 'x'), end('seg_7')),
    ],
    ['segments.unknown-id', events(end('seg_7')), events(start('seg_7', 'text'), end('seg_7'))],
    [
      'segments.started-twice',
      events(start('seg_1', 'text'), start('seg_1', 'text'), end('seg_1')),
      events(start('seg_1', 'text'), end('seg_1'), start('seg_2', 'text'), end('seg_2')),
    ],
    [
      'segments.content-after-end',
      events(start('seg_1', 'text'), end('seg_1'), content('seg_1', 'x')),
      events(start('seg_1', 'text'), content('seg_1', 'x'), end('seg_1')),
    ],
    ['segments.unclosed', events(start('seg_1', 'run_bash'), content('seg_1', 'ls')), clean],
    [
      'segments.unknown-type',
      events(start('seg_1', 'diagram'), end('seg_1')),
      events(start('seg_1', 'patch_file', { path: 'a' }), end('seg_1')),
    ],
    [
      'segments.malformed-event',
      events(start('seg_1', 'text'), { type: 'SEGMENT_PAUSE', segment_id: 'seg_1' }, end('seg_1')),
      clean,
    ],
    [
      'segments.malformed-event',
      events(start('seg_1', 'text'), { type: 'SEGMENT_CONTENT', segment_id: 'seg_1', payload: {} }, end('seg_1')),
      clean,
    ],
  ] as const)('%s: raised when it applies, not otherwise', (rule, triggers, mustNot) => {
    expect(rulesOf(triggers)).toContain(rule);
    expect(rulesOf(mustNot)).not.toContain(rule);
  });

  it('keeps an event that is not JSON undecoded and says so', () => {
    const result = decodeLegs([[{ bytes: events(start('seg_1', 'text'), '{oops', end('seg_1')) }]]);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['json.invalid']);
    expect(result.envelopes.find((e) => e.control === 'undecoded')?.delta).toBe('{oops');
  });

  it('keeps an event whose type is deeply nested JSON undecoded, without overflowing the stack', () => {
    const deep = `{"type":${nestedArrayText(100_000)},"segment_id":"seg_1","payload":{}}`;
    const result = decodeLegs([[{ bytes: events(start('seg_1', 'text'), deep, end('seg_1')) }]]);
    const undecoded = result.envelopes.find((e) => e.control === 'undecoded');
    expect(undecoded?.delta).toBe(deep);
    expect(result.diagnostics.find((d) => d.message.includes('none of'))?.message).toContain('array [[[[');
  });
});
