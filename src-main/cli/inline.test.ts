import { describe, expect, it } from 'vitest';
import { main } from './main';
import { memoryIo } from './test-io';

const run = async (args: string[], stdin?: string) => {
  const io = memoryIo(stdin);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

const AGENT = '11111111-1111-4111-8111-111111111111';

/** A JSON-envelope capture whose one text block streams `deltas`. */
function capture(deltas: readonly string[]): string {
  const events = [
    ...deltas.map((delta) => ({ type: 'text', agent: AGENT, final: false, delta })),
    { type: 'text', agent: AGENT, final: true, delta: '' },
  ];
  return `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
}

const TURN = capture(['<thinking>Find it.</thi', 'nking>\n<search><query>login &amp; ', 'user</query></search>']);

interface JsonBlock {
  kind: string;
  segments?: {
    id: string;
    type: string;
    metadata: Record<string, unknown>;
    params: Record<string, string>;
    content: string;
    complete: boolean;
  }[];
}

describe('stream-inspector blocks --json: segments of text blocks', () => {
  it('gives every text block a segments array with the output contract', async () => {
    const { code, out } = await run(['blocks', '--json', '-'], TURN);
    expect(code).toBe(0);
    const blocks = JSON.parse(out) as JsonBlock[];
    expect(blocks.filter((b) => b.kind === 'text').every((b) => Array.isArray(b.segments))).toBe(true);
    expect(blocks[0]?.segments).toEqual([
      expect.objectContaining({
        id: 'seg_1',
        type: 'reasoning',
        metadata: {},
        params: {},
        content: 'Find it.',
        complete: true,
      }),
      expect.objectContaining({
        id: 'seg_2',
        type: 'tool_call',
        metadata: { tool_name: 'search' },
        params: { query: 'login & user' },
        complete: true,
      }),
    ]);
  });

  it('--inline off keeps the text one text segment', async () => {
    const { out } = await run(['blocks', '--json', '--inline', 'off', '-'], TURN);
    expect((JSON.parse(out) as JsonBlock[])[0]?.segments?.map((s) => s.type)).toEqual(['text']);
  });

  it('--inline json reads tool calls written as JSON in the text (issue 23 §2.3)', async () => {
    const text = capture([
      'Looking it up.\n<tool_call>\n{"name": "get_weather", "argu',
      'ments": {"city": "Paris"}}\n</tool_call>',
    ]);
    const { code, out } = await run(['blocks', '--json', '--inline', 'json', '-'], text);
    expect(code).toBe(0);
    expect((JSON.parse(out) as JsonBlock[])[0]?.segments?.map((s) => [s.type, s.metadata, s.params])).toEqual([
      ['text', {}, {}],
      ['tool_call', { tool_name: 'get_weather' }, { city: 'Paris' }],
    ]);
    // The default mode does not read JSON: the same text is one text segment.
    const auto = await run(['blocks', '--json', '-'], text);
    expect((JSON.parse(auto.out) as JsonBlock[])[0]?.segments?.map((s) => s.type)).toEqual(['text']);
  });

  it('--tools replaces the known tool tags, with their required parameters', async () => {
    const { out } = await run(
      ['blocks', '--json', '--tools', 'lookup:term', '-'],
      capture(['<lookup><term>x</term></lookup>']),
    );
    expect((JSON.parse(out) as JsonBlock[])[0]?.segments?.map((s) => [s.type, s.metadata])).toEqual([
      ['tool_call', { tool_name: 'lookup' }],
    ]);
    const report = await run(
      ['inspect', '--json', '--tools', 'lookup:term:scope', '-'],
      capture(['<lookup><term>x</term></lookup>']),
    );
    expect(JSON.parse(report.out)).toMatchObject({
      diagnostics: [expect.objectContaining({ rule: 'inline.missing-param' })],
    });
  });

  it('prints the segments under a text block in the text listing', async () => {
    const { out } = await run(['blocks', '-'], TURN);
    expect(out).toContain('seg_1 reasoning : "Find it."');
    expect(out).toContain('seg_2 tool_call "search" query="login & user"');
  });

  it('counts segments by type in inspect', async () => {
    const { out } = await run(['inspect', '-'], TURN);
    expect(out).toContain('segments: 1 reasoning, 1 tool_call');
  });

  it.each([
    [['--inline', 'maybe'], '--inline must be one of auto, xml, sentinel, json, off'],
    [['--tools', 'bad name'], '--tools takes tag names'],
    [['--tools', ''], '--tools takes tag names'],
  ])('rejects %j with a usage error', async (args, message) => {
    const { code, err } = await run(['inspect', ...args, '-'], TURN);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});
