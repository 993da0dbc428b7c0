import { describe, expect, it } from 'vitest';
import type { AgentInfo, Block } from '../reconstruct/types';
import { buildTranscript, fenced } from './transcript';

let nextId = 0;
function block(agent: string, kind: string, content: string, change: Partial<Block> = {}): Block {
  const id = nextId++;
  return {
    id,
    agent,
    kind,
    status: 'complete',
    content,
    citations: [],
    images: [],
    envelopes: [id * 10],
    leg: 0,
    byteStart: 0,
    byteEnd: 1,
    ...change,
  };
}

const agents: AgentInfo[] = [
  { uuid: 'root-uuid', parent: null, model: 'claude-x', userQuery: 'How tall is\nthe Eiffel Tower?', firstEnvelope: 0 },
  { uuid: 'child-uuid', parent: 'root-uuid', firstEnvelope: 5 },
];

describe('transcript export', () => {
  it('writes the conversation in stream order under each agent’s name, text as Markdown, the rest fenced or quoted', () => {
    const md = buildTranscript({
      title: 'Demo agent: Tour',
      agents,
      blocks: [
        block('root-uuid', 'meta_init', '{"model":"claude-x"}'),
        block('root-uuid', 'thinking', 'Let me think.\n\nA tower.'),
        block('root-uuid', 'text', 'The **Eiffel Tower** is 330 m tall.', {
          citations: [
            {
              citationType: 'web_search_result_location',
              citedText: 'It stands\n330 metres high.',
              fields: { title: 'Eiffel <facts>', url: 'https://example.com/a b' },
              envelope: 3,
            },
          ],
        }),
        block('child-uuid', 'tool_call', '{"q":1}', { name: 'web_search', toolId: 'toolu_1', parsed: { q: 1 } }),
        block('root-uuid', 'text', 'Done', { status: 'open' }),
      ],
    });
    expect(md).toBe(
      [
        '# Demo agent: Tour',
        '',
        '- **main** `root-uuid` — claude-x',
        '  - asked: How tall is the Eiffel Tower?',
        '- **sub 1** `child-uuid` — spawned by main',
        '',
        '## main',
        '',
        '> *thinking*',
        '>',
        '> Let me think.',
        '>',
        '> A tower.',
        '',
        'The **Eiffel Tower** is 330 m tall.',
        '',
        '[1] “It stands 330 metres high.” — Eiffel <facts> <https://example.com/a%20b>',
        '',
        '## sub 1',
        '',
        '**tool_call `web_search`** (toolu_1)',
        '',
        '```json',
        '{\n  "q": 1\n}',
        '```',
        '',
        '## main',
        '',
        'Done',
        '',
        '*(cut off: the stream ended before this block completed)*',
        '',
      ].join('\n'),
    );
  });

  it('fences content holding backticks with a longer fence, so a tool result cannot end its block', () => {
    expect(fenced('a ``` b ```` c')).toEqual(['`````', 'a ``` b ```` c', '`````']);
    const md = buildTranscript({ title: 'x', agents: [], blocks: [block('a', 'tool_result', '```\n# not a heading')] });
    expect(md).toContain('````\n```\n# not a heading\n````');
  });

  it('names agents seen only in blocks, and writes a title on one line', () => {
    const md = buildTranscript({
      title: 'two\nlines',
      agents: [],
      blocks: [block('x', 'text', 'hi'), block('y', 'text', 'there')],
    });
    expect(md.split('\n').slice(0, 6)).toEqual(['# two lines', '', '## main', '', 'hi', '']);
    expect(md).toContain('## main 2\n\nthere');
  });
});
