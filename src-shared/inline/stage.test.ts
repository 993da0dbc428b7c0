import { describe, expect, it } from 'vitest';
import { decodeLegs, type ChunkInput } from '../pipeline/session-decoder';
import { chunkings, textChunkings } from '../testing/chunking';
import { parseSegments } from './collect';
import { DEFAULT_INLINE_OPTIONS, INLINE_MODES } from './types';

const encoder = new TextEncoder();
const AGENT = '11111111-1111-4111-8111-111111111111';

/** A JSON-envelope stream whose text block arrives in the given deltas. */
function textStream(deltas: readonly string[], { close = true } = {}): Uint8Array {
  const events = deltas.map((delta) => ({ type: 'text', agent: AGENT, final: false, delta }));
  if (close) events.push({ type: 'text', agent: AGENT, final: true, delta: '' });
  return encoder.encode(
    events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (close ? 'data: [DONE]\n\n' : ''),
  );
}

const TURN = ['<thinking>Find the', ' login code.</thi', 'nking>\n<sea', 'rch>\n  <query>login</que', 'ry>\n</search>'];

describe('the inline stage in the pipeline', () => {
  it('gives each text block its segments, fed delta by delta', () => {
    const result = decodeLegs([[{ bytes: textStream(TURN) }]]);
    const block = result.blocks.find((b) => b.kind === 'text');
    expect(block?.segments?.map((s) => [s.type, s.complete, s.params])).toEqual([
      ['reasoning', true, {}],
      ['tool_call', true, { query: 'login' }],
    ]);
    expect(result.diagnostics.filter((d) => d.rule.startsWith('inline.'))).toEqual([]);
  });

  it('is chunking-invariant over the bytes (whole, byte by byte, seeded random splits)', () => {
    const bytes = textStream([
      ...TURN,
      '\nand then [[SEG_START {"type":"run_bash"}]]ls',
      ' -la[[SEG_E',
      'ND]] <run_bash>x',
    ]);
    const decode = (chunks: readonly Uint8Array[]) => {
      const r = decodeLegs([chunks.map((c): ChunkInput => ({ bytes: c }))]);
      return {
        segments: r.blocks.map((b) => b.segments),
        diagnostics: r.diagnostics.map((d) => [d.rule, d.message, d.at]),
      };
    };
    const expected = decode([bytes]);
    expect(expected.diagnostics.map((d) => d[0])).toEqual(
      expect.arrayContaining(['inline.unclosed', 'inline.text-after-action']),
    );
    for (const { name, chunks } of chunkings(bytes)) expect(decode(chunks), name).toEqual(expected);
  });

  it('points a finding at the envelope being decoded and at the block', () => {
    const result = decodeLegs([[{ bytes: textStream(['<search><query>x</query></extract>', '</search>']) }]]);
    const finding = result.diagnostics.find((d) => d.rule === 'inline.mismatched-close');
    expect(finding?.at).toMatchObject({ block: 0, envelope: 0, frame: 0 });
    expect(finding?.message).toContain('text block #0, character 24');
  });

  it('closes what a cut stream left open, and says so', () => {
    const result = decodeLegs([[{ bytes: textStream(['<write_file path="/a.py">print(1)'], { close: false }) }]]);
    const block = result.blocks[0];
    expect(block?.status).toBe('open');
    expect(block?.segments).toMatchObject([
      { type: 'write_file', metadata: { path: '/a.py' }, content: 'print(1)', complete: false },
    ]);
    expect(result.diagnostics.map((d) => d.rule)).toContain('inline.unclosed');
  });

  // Plain text (no character that can start a marker) is kept without running the parser on
  // each delta; whatever the deltas, the segments and findings are the parser's over the whole text.
  it.each([
    ['plain prose', 'The plan, in plain words: first this, then that.\nDone.'],
    ['white space first', '  \n\n  Then the answer.'],
    ['only white space', ' \n\t \n'],
    ['a tag late in plain text', 'Some words first, then <search><query>q</query></search>'],
    ['a sentinel late in plain text', 'Words, then [[SEG_START {"type":"run_bash"}]]ls[[SEG_END]] and more'],
    ['brackets and comparisons only', 'a [b] and c < d, then e'],
    ['a tag cut by the end', 'Text before <write_file path="a">x'],
    ['JSON and code in prose', 'Call it as {"name":"f","arguments":{}} or `f()`, 数据 ✓ ok'],
    ['a JSON call after non-ASCII text', 'événement — 数据 🙂 {"name":"search","arguments":{"query":"q"}}'],
  ])('gives %s the segments of a whole-text parse, in any deltas and every mode', (_name, text) => {
    for (const mode of INLINE_MODES) {
      const options = { ...DEFAULT_INLINE_OPTIONS, mode };
      const whole = parseSegments(text, options);
      for (const { name, pieces } of textChunkings(text)) {
        for (const close of [true, false]) {
          const result = decodeLegs([[{ bytes: textStream(pieces, { close }) }]], { inline: options });
          expect(result.blocks[0]?.segments ?? [], `${mode}, ${name}, close ${close}`).toEqual(whole.segments);
          const findings = result.diagnostics.filter((d) => d.rule.startsWith('inline.')).map((d) => d.rule);
          expect(findings, `${mode}, ${name}, close ${close}`).toEqual(whole.findings.map((f) => f.rule));
        }
      }
    }
  });

  it('gives blocks whose deltas interleave the segments of each block decoded alone', () => {
    // Two agents' text blocks, delta by delta in turn: the stage switches between their parses
    // at every delta (it keeps the last block's parse at hand), and each must stay its own.
    const OTHER = '22222222-2222-4222-8222-222222222222';
    const texts = [
      ['Plain words ', 'from the first agent, ', 'then <search><query>a', '</query></search> done'],
      ['[[SEG_START {"type":"run_bash"}]]ls', ' -la[[SEG_END]] and ', 'plain text ', 'to the end'],
    ] as const;
    const alone = texts.map((deltas) => decodeLegs([[{ bytes: textStream(deltas) }]]).blocks[0]?.segments);
    const events: string[] = [];
    for (let i = 0; i < 4; i++)
      texts.forEach((deltas, n) =>
        events.push(JSON.stringify({ type: 'text', agent: n === 0 ? AGENT : OTHER, final: false, delta: deltas[i] })),
      );
    for (const agent of [AGENT, OTHER]) events.push(JSON.stringify({ type: 'text', agent, final: true, delta: '' }));
    const bytes = encoder.encode(events.map((e) => `data: ${e}\n\n`).join('') + 'data: [DONE]\n\n');
    const result = decodeLegs([[{ bytes }]]);
    expect(result.blocks.map((b) => b.segments)).toEqual(alone);
    expect(alone.map((segments) => segments?.map((s) => s.type))).toEqual([
      ['text', 'tool_call', 'text'],
      ['run_bash', 'text'],
    ]);
  });

  it("follows the session's mode", () => {
    const bytes = textStream(TURN);
    const off = decodeLegs([[{ bytes }]], { inline: { ...DEFAULT_INLINE_OPTIONS, mode: 'off' } });
    expect(off.blocks[0]?.segments?.map((s) => s.type)).toEqual(['text']);
    const sentinel = decodeLegs([[{ bytes }]], { inline: { ...DEFAULT_INLINE_OPTIONS, mode: 'sentinel' } });
    expect(sentinel.blocks[0]?.segments?.map((s) => s.type)).toEqual(['text']);
  });

  it('parses a block again from its start when a replayed attempt is split off it', () => {
    // The same opening deltas twice without a final marker: the reconstructor keeps the first
    // attempt as an abandoned block and continues with the replay (block.restarted).
    const first = ['<thinking>Plan the', ' search carefully', ' now.</thinking>'];
    const bytes = textStream([...first, ...first, '<search><query>q</query></search>']);
    const result = decodeLegs([[{ bytes }]]);
    expect(result.diagnostics.map((d) => d.rule)).toContain('block.restarted');
    const [abandoned, replay] = result.blocks;
    expect(abandoned?.status).toBe('abandoned');
    expect(abandoned?.segments?.map((s) => s.content)).toEqual(['Plan the search carefully now.']);
    expect(replay?.segments?.map((s) => s.type)).toEqual(['reasoning', 'tool_call']);
  });
});
