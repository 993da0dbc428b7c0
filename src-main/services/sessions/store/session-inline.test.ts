import { describe, expect, it } from 'vitest';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from '../../../../src-shared/inline/types';
import { toBlockDetail } from './session-summary';
import { createSessionStore } from './session-store';

const AGENT = '11111111-1111-4111-8111-111111111111';
const encoder = new TextEncoder();

/** A JSON-envelope stream: one text block per list of deltas, then [DONE]. */
function stream(blocks: readonly (readonly string[])[]): Uint8Array {
  const events = blocks.flatMap((deltas) => [
    ...deltas.map((delta) => ({ type: 'text', agent: AGENT, final: false, delta })),
    { type: 'text', agent: AGENT, final: true, delta: '' },
  ]);
  return encoder.encode(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
}

function sessionOf(bytes: Uint8Array, inline?: InlineOptions) {
  const data = createSessionStore({
    id: 's1',
    title: 't',
    source: { kind: 'file', path: '/x', importer: 'sse' },
    createdAt: 0,
    ...(inline ? { inline } : {}),
  });
  const leg = data.openLeg('file', null, 0).index;
  data.push(leg, bytes, 0);
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  return data;
}

const BYTES = stream([
  ['<thinking>Plan.</thi', 'nking><search><query>q</query>', '</search>', ' and more'],
  ['<run_bash>ls', '</run_bash>'],
]);

describe("a session's inline stage", () => {
  it('gives text block summaries their segment types and details their segments', () => {
    const data = sessionOf(BYTES);
    const [first, second] = data.blocks();
    expect(data.blockSummary(first!).segmentTypes).toEqual(['reasoning', 'tool_call', 'text']);
    expect(toBlockDetail(second!).segments?.map((s) => [s.type, s.content])).toEqual([['run_bash', 'ls']]);
    expect(data.summary().inline).toEqual({
      mode: 'auto',
      tools: DEFAULT_INLINE_OPTIONS.tools.map((t) => ({ name: t.name, required: [...t.required] })),
    });
  });

  it('reads the text again in another mode and replaces the inline findings, and only those', () => {
    const data = sessionOf(stream([['<search><path>x</path></search> tail']]));
    expect(data.diagnostics().map((d) => d.rule)).toEqual(['inline.missing-param', 'inline.text-after-action']);
    const before = data.takeBatch(1000);

    data.setInline({ mode: 'off', tools: [] });
    expect(data.blocks()[0]?.segments?.map((s) => s.type)).toEqual(['text']);
    expect(data.diagnostics()).toEqual([]);
    expect(data.severityCounts()).toEqual({ error: 0, warning: 0, info: 0 });
    const reset = data.takeBatch(1000);
    expect(reset).toMatchObject({ diagnosticResets: 1, diagnosticCount: 0 });
    expect(data.diagnosticsSince(2, 0)).toEqual({ resets: 1, from: 0, diagnostics: [] });
    expect(data.blockChanges(before?.blockRevision ?? 0).blocks.map((b) => b.segmentTypes)).toEqual([['text']]);
    expect(reset?.changed.map((r) => [r.seq, r.diagnostics])).toEqual([[0, 0]]);

    data.setInline(DEFAULT_INLINE_OPTIONS);
    expect(data.diagnostics().map((d) => [d.seq, d.rule])).toEqual([
      [0, 'inline.missing-param'],
      [1, 'inline.text-after-action'],
    ]);
    expect(data.summary().inline?.mode).toBe('auto');
  });

  it('keeps findings of other stages when the mode changes', () => {
    const cut = new TextDecoder().decode(stream([['<thinking>a</thinking>']])).replace('data: [DONE]\n\n', '');
    const data = sessionOf(encoder.encode(cut));
    expect(data.diagnostics().map((d) => d.rule)).toEqual(['inline.no-action', 'stream.missing-done']);
    data.setInline({ ...DEFAULT_INLINE_OPTIONS, mode: 'sentinel' });
    expect(data.diagnostics().map((d) => [d.seq, d.rule])).toEqual([[0, 'stream.missing-done']]);
  });

  it('decodes with the inline options it was created with', () => {
    const data = sessionOf(BYTES, { mode: 'xml', tools: [{ name: 'lookup', required: [] }] });
    expect(data.blockSummary(data.blocks()[0]!).segmentTypes).toEqual(['reasoning', 'text']);
  });
});

describe('a session of segment events', () => {
  it('shows each segment block with its segment', () => {
    const events = [
      {
        type: 'SEGMENT_START',
        segment_id: 'seg_1',
        segment_type: 'write_file',
        payload: { metadata: { path: '/a.py' } },
      },
      { type: 'SEGMENT_CONTENT', segment_id: 'seg_1', payload: { delta: 'x = 1\n' } },
      { type: 'SEGMENT_END', segment_id: 'seg_1', payload: {} },
      { type: 'SEGMENT_START', segment_id: 'seg_2', segment_type: 'run_bash', payload: { metadata: {} } },
      { type: 'SEGMENT_CONTENT', segment_id: 'seg_2', payload: { delta: 'ls' } },
      { type: 'SEGMENT_END', segment_id: 'seg_2', payload: {} },
    ];
    const data = sessionOf(encoder.encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')));
    expect(data.summary().format).toBe('segments');
    expect(data.blocks().map((b) => data.blockSummary(b).segmentTypes)).toEqual([['write_file'], ['run_bash']]);
    expect(toBlockDetail(data.blocks()[0]!).segments).toEqual([
      {
        id: 'seg_1',
        type: 'write_file',
        metadata: { path: '/a.py' },
        params: {},
        content: 'x = 1\n',
        complete: true,
        start: 0,
        end: 6,
      },
    ]);
  });
});
