import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../../testing/chunking';
import {
  deltaBlocks,
  envelopeShapes,
  jsonFixtureEnvelopes,
  payloads,
  rulesOf,
  runDialectOnChunks,
  runDialectOnItems,
  type DialectRun,
  type JsonEnvelope,
} from '../../../src-main/testing/dialects';
import { listSseFixtures, readFixture, readManifest } from '../../../src-main/testing/fixtures';
import type { DialectOptions } from '../types';
import type { EnvelopeInit } from '../../envelope/types';
import { createLegacyXmlDecoder } from './decoder';
import { htmlEscape } from './entities';
import { xmlStreamEscape } from './escaping';
import { frameOf } from '../../testing/frames';

const ROOT = '11111111-1111-4111-8111-111111111111';

const decode = (items: readonly string[], options?: DialectOptions): DialectRun =>
  runDialectOnItems(createLegacyXmlDecoder, items, options);

const shapes = (run: DialectRun): ReturnType<typeof envelopeShapes> => envelopeShapes(run.envelopes);

const metaInit = (json: object): string => `<meta_init data="${htmlEscape(JSON.stringify(json))}"></meta_init>`;

describe('streamed blocks', () => {
  test.each(['text', 'thinking'] as const)(
    '%s: open tag, deltas, close tag map to block-open, deltas and an empty final marker',
    (type) => {
      const run = decode([
        `<content-block-${type}>`,
        xmlStreamEscape('Hello\nC:\\temp '),
        xmlStreamEscape('a \\n b'),
        `</content-block-${type}>`,
      ]);
      expect(shapes(run)).toEqual([
        { type, final: false, delta: '', extras: {}, control: 'block-open' },
        { type, final: false, delta: 'Hello\nC:\\temp ', extras: {} },
        { type, final: false, delta: 'a \\n b', extras: {} },
        { type, final: true, delta: '', extras: {} },
      ]);
      expect(run.diagnostics).toEqual([]);
    },
  );

  it("takes every item inside a block as a delta unless it is exactly an open tag, the open block's close tag or a complete element", () => {
    const inside = [
      '</content',
      '-block-text> <co',
      '<content-block-tool_call id="x"',
      '&amp; &lt;',
      '</content-block-thinking>',
      '</content-block-thinking >',
      '<content-block-text> and more',
    ];
    const run = decode(['<content-block-text>', ...inside, '</content-block-text>']);
    expect(run.envelopes.slice(1, -1).map((e) => [e.type, e.delta])).toEqual(inside.map((d) => ['text', d]));
    expect(run.diagnostics).toEqual([]);
  });

  it('flags an item that is wholly a content-block-* tag the vocabulary lacks, inside a block, and shows it as received (text of the block)', () => {
    const items = [
      '<content-block-redacted_thinking>',
      'x',
      '</content-block-redacted_thinking>',
      '<content-block-image src="a.png" />',
      '<content-block-redacted_thinking>',
    ];
    const run = decode(['<content-block-text>', 'Hi ', ...items, '</content-block-text>']);
    expect(run.envelopes.slice(1, -1).map((e) => [e.type, e.delta])).toEqual(['Hi ', ...items].map((d) => ['text', d]));
    expect(run.diagnostics.map((d) => [d.rule, d.at.frame])).toEqual([
      ['xml.unknown-tag', 2],
      ['xml.unknown-tag', 5],
    ]);
    expect(run.diagnostics[0]?.message).toBe(
      'Event 2 is a <content-block-redacted_thinking> item, which is not part of the XML stream vocabulary; it came inside the open text block and is shown as received, as text of that block. Later <content-block-redacted_thinking> items are not reported again.',
    );
  });

  it('decodes a complete element of the vocabulary even while a block is open', () => {
    const run = decode([
      '<content-block-text>',
      '<content-block-tool_call id="t1" name="f" arguments="{}"></content-block-tool_call>',
      '</content-block-text>',
    ]);
    expect(run.envelopes.map((e) => e.type)).toEqual(['text', 'tool_call', 'text']);
  });

  it('gives complete embedded chart and table tags as extras.embedded and keeps the delta verbatim', () => {
    const delta = 'see <chart type="bar">{"v":[1,2]}</chart> then <table>';
    const run = decode(['<content-block-text>', delta, '</content-block-text>']);
    expect(run.envelopes[1]).toMatchObject({
      delta,
      extras: { embedded: [{ tag: 'chart', attrs: { type: 'bar' }, body: '{"v":[1,2]}' }] },
    });
  });
});

describe('agent attribution', () => {
  it('stamps defaultAgent until the root meta_init names the agent', () => {
    const run = decode(
      [
        '<content-block-text>',
        metaInit({ format: 'xml', agent_uuid: ROOT, parent_agent_uuid: null }),
        'x',
        '</content-block-text>',
      ],
      { defaultAgent: 'earlier-leg' },
    );
    expect(run.envelopes.map((e) => e.agent)).toEqual(['earlier-leg', ROOT, ROOT, ROOT]);
  });

  it('gives a sub-agent meta_init the child uuid, keeps content on the root agent, and says so once', () => {
    const run = decode([
      metaInit({ format: 'xml', agent_uuid: ROOT, parent_agent_uuid: null }),
      metaInit({ format: 'xml', agent_uuid: 'child-a', parent_agent_uuid: ROOT }),
      metaInit({ format: 'xml', agent_uuid: 'child-b', parent_agent_uuid: ROOT }),
      '<content-block-text>',
    ]);
    expect(run.envelopes.map((e) => [e.type, e.agent])).toEqual([
      ['meta_init', ROOT],
      ['meta_init', 'child-a'],
      ['meta_init', 'child-b'],
      ['text', ROOT],
    ]);
    expect(run.diagnostics.filter((d) => d.rule === 'xml.subagent-unattributed')).toHaveLength(1);
  });
});

describe('elements', () => {
  it('meta_init, meta_final and awaiting_frontend_tools carry the HTML-decoded JSON text as delta', () => {
    const pending = [
      { tool_use_id: 'toolu_1', name: 'user_confirm', input: { message: 'O\'Neil says "go" & <stop>' } },
    ];
    const run = decode([
      metaInit({ format: 'xml', user_query: 'a\\nb "q"', agent_uuid: ROOT }),
      `<awaiting_frontend_tools data="${htmlEscape(JSON.stringify(pending))}"></awaiting_frontend_tools>`,
      `<meta_final data="${htmlEscape('{"stop_reason": "end_turn"}')}"></meta_final>`,
    ]);
    expect(shapes(run)).toEqual([
      {
        type: 'meta_init',
        final: true,
        delta: JSON.stringify({ format: 'xml', user_query: 'a\\nb "q"', agent_uuid: ROOT }),
        extras: {},
      },
      { type: 'awaiting_frontend_tools', final: true, delta: JSON.stringify(pending), extras: {} },
      { type: 'meta_final', final: true, delta: '{"stop_reason": "end_turn"}', extras: {} },
    ]);
  });

  it('decodes tool call arguments in upstream order: SSE-unescape, HTML-unescape, JSON.parse', () => {
    const input = { query: 'say "hi" \\ ]]>', path: 'C:\\new' };
    const attribute = htmlEscape(JSON.stringify(input));
    const item = xmlStreamEscape(
      `<content-block-server_tool_call id="srvtoolu_1" name="web_search" arguments="${attribute}"></content-block-server_tool_call>`,
    );
    const run = decode([item]);
    expect(shapes(run)).toEqual([
      {
        type: 'server_tool_call',
        final: true,
        delta: JSON.stringify(input),
        extras: { id: 'srvtoolu_1', name: 'web_search' },
      },
    ]);
    expect(JSON.parse(run.envelopes[0]?.delta ?? '')).toEqual(input);
    expect(run.diagnostics).toEqual([]);
  });

  it('plain tool_result: CDATA with newlines escaped and ]]> split (no backslash doubling)', () => {
    const run = decode([
      '<content-block-tool_result id="toolu_1" name="echo"><![CDATA[line 1\\nC:\\\\x ]]]]><![CDATA[> end]]></content-block-tool_result>',
    ]);
    expect(shapes(run)).toEqual([
      { type: 'tool_result', final: true, delta: 'line 1\nC:\\\\x ]]> end', extras: { id: 'toolu_1', name: 'echo' } },
    ]);
    expect(run.diagnostics).toEqual([]);
  });

  it('multimodal tool_result: text (not final), one tool_result_image per image, empty final marker', () => {
    const run = decode([
      '<content-block-tool_result id="toolu_2" name="shot"><text><![CDATA[Two\\nimages]]></text><image src="/agent/a/images/1?x=1&amp;y=2" media_type="image/png" /><image src="https://s3/b.jpg" media_type="image/jpeg" /></content-block-tool_result>',
    ]);
    const ids = { id: 'toolu_2', name: 'shot' };
    expect(shapes(run)).toEqual([
      { type: 'tool_result', final: false, delta: 'Two\nimages', extras: ids },
      {
        type: 'tool_result_image',
        final: false,
        delta: '',
        extras: { ...ids, src: '/agent/a/images/1?x=1&y=2', media_type: 'image/png' },
      },
      {
        type: 'tool_result_image',
        final: false,
        delta: '',
        extras: { ...ids, src: 'https://s3/b.jpg', media_type: 'image/jpeg' },
      },
      { type: 'tool_result', final: true, delta: '', extras: ids },
    ]);
  });

  it('server_tool_result and dynamic *_tool_result tags: CDATA verbatim after SSE-unescaping, name from the tag suffix', () => {
    const run = decode([
      xmlStreamEscape(
        '<content-block-server_tool_result id="srvtoolu_1" name="web_search_tool_result"><![CDATA[["A \\"q\\" ]]> b"]]]></content-block-server_tool_result>',
      ),
      '<content-block-web_search_tool_result id="srvtoolu_2"><![CDATA[[]]]></content-block-web_search_tool_result>',
      '<bash_code_execution_tool_result id="srvtoolu_3"><![CDATA[x]]></bash_code_execution_tool_result>',
    ]);
    expect(shapes(run)).toEqual([
      {
        type: 'server_tool_result',
        final: true,
        delta: '["A \\"q\\" ]]> b"]',
        extras: { id: 'srvtoolu_1', name: 'web_search_tool_result' },
      },
      {
        type: 'server_tool_result',
        final: true,
        delta: '[]',
        extras: { id: 'srvtoolu_2', name: 'web_search_tool_result' },
      },
      {
        type: 'server_tool_result',
        final: true,
        delta: 'x',
        extras: { id: 'srvtoolu_3', name: 'bash_code_execution_tool_result' },
      },
    ]);
  });

  it('citations: one envelope each, the last final, extras as the JSON formatter gives them', () => {
    const run = decode([
      '<citations><citation type="char_location" document_index="0" document_title="A &amp; B" start_char_index="0" end_char_index="5"><![CDATA[Hello]]></citation><citation type="web_search_result_location" url="" title="T"><![CDATA[a ]]> b]]></citation></citations>',
    ]);
    expect(shapes(run)).toEqual([
      {
        type: 'citation',
        final: false,
        delta: 'Hello',
        extras: {
          citation_type: 'char_location',
          document_index: 0,
          document_title: 'A & B',
          start_char_index: 0,
          end_char_index: 5,
        },
      },
      {
        type: 'citation',
        final: true,
        delta: 'a ]]> b',
        extras: { citation_type: 'web_search_result_location', title: 'T' },
      },
    ]);
  });

  it('meta_files and error carry their CDATA', () => {
    const run = decode([
      '<content-block-meta_files><![CDATA[{"files":[]}]]></content-block-meta_files>',
      xmlStreamEscape(
        '<content-block-error><![CDATA[{"type": "api_error", "message": "a\\nb"}]]></content-block-error>',
      ),
    ]);
    expect(shapes(run)).toEqual([
      { type: 'meta_files', final: true, delta: '{"files":[]}', extras: {} },
      { type: 'error', final: true, delta: '{"type": "api_error", "message": "a\\nb"}', extras: {} },
    ]);
  });

  it('keeps an undecodable item as an undecoded control envelope with its data', () => {
    const run = decode(['stray text']);
    expect(shapes(run)).toEqual([
      { type: 'undecoded', final: true, delta: 'stray text', extras: {}, control: 'undecoded' },
    ]);
  });
});

describe('through the SSE framer', () => {
  const items = [
    metaInit({ format: 'xml', agent_uuid: ROOT }),
    '<content-block-text>',
    xmlStreamEscape('two\nlines \\ '),
    '</content-block-text>',
    '<content-block-tool_result id="t" name="n"><text><![CDATA[a\\nb]]></text><image src="/i" media_type="image/png" /></content-block-tool_result>',
  ];
  test.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('decodes the same whatever the line ending: %s', (_name, eol) => {
    const stream = new TextEncoder().encode(
      items.map((item) => `data: ${item}${eol}${eol}`).join('') + `data: [DONE]${eol}${eol}`,
    );
    const run = runDialectOnChunks(createLegacyXmlDecoder, [stream]);
    expect(shapes(run)).toEqual(shapes(decode(items)));
    expect(run.envelopes.map((e) => e.frame)).toEqual([0, 1, 2, 3, 4, 4, 4]);
  });
});

describe('escaping eras', () => {
  it('a backslash the escaping cannot produce switches to verbatim items from that item on', () => {
    const run = decode([
      '<content-block-text>',
      'a\\\\b',
      'tab \\t and \\n',
      'still \\n verbatim',
      '</content-block-text>',
    ]);
    expect(run.envelopes.slice(1, 4).map((e) => e.delta)).toEqual(['a\\b', 'tab \\t and \\n', 'still \\n verbatim']);
    expect(rulesOf(run)).toEqual(['xml.unescaped-stream']);
  });

  it('an agent-layer item never decides the era (its backslashes are not doubled)', () => {
    const run = decode([metaInit({ q: 'say "x"\n' }), '<content-block-text>', 'a\\nb']);
    expect(run.envelopes[2]?.delta).toBe('a\nb');
    expect(rulesOf(run)).not.toContain('xml.unescaped-stream');
  });
});

/** A sub-agent's meta_init: from here on, tags of concurrent agents may interleave. */
const SUB_AGENT_STARTS = metaInit({ agent_uuid: 'c', parent_agent_uuid: 'p' });
const TOOL_CALL = '<content-block-tool_call id="t" name="n" arguments="{}"></content-block-tool_call>';

/** One hand-made stream that triggers each rule, and one close to it that must not. */
const RULE_CASES: { rule: string; triggers: string[]; clean: string[] }[] = [
  {
    rule: 'xml.unclosed',
    triggers: ['<content-block-text>', 'partial'],
    clean: ['<content-block-text>', 'whole', '</content-block-text>'],
  },
  {
    rule: 'xml.unclosed',
    triggers: ['<content-block-text>', 'He', '<content-block-text>', 'Hello', '</content-block-text>'],
    clean: [
      '<content-block-text>',
      'He',
      '</content-block-text>',
      '<content-block-text>',
      'Hello',
      '</content-block-text>',
    ],
  },
  {
    rule: 'xml.unclosed',
    triggers: ['<content-block-error><![CDATA[x]]>'],
    clean: ['<content-block-error><![CDATA[x]]></content-block-error>'],
  },
  {
    rule: 'xml.mismatched',
    triggers: ['</content-block-thinking>'],
    clean: ['<content-block-thinking>', '</content-block-thinking>'],
  },
  {
    rule: 'xml.mismatched',
    triggers: [
      '<content-block-text>',
      '<content-block-thinking>',
      '</content-block-text>',
      '</content-block-thinking>',
    ],
    clean: ['<content-block-text>', '<content-block-thinking>', '</content-block-thinking>', '</content-block-text>'],
  },
  {
    rule: 'xml.unclosed',
    triggers: ['<content-block-thinking>', 'hmm', TOOL_CALL, '</content-block-thinking>'],
    clean: [SUB_AGENT_STARTS, '<content-block-thinking>', 'hmm', TOOL_CALL, '</content-block-thinking>'],
  },
  {
    rule: 'xml.unclosed',
    triggers: [
      '<content-block-thinking>',
      'hmm',
      '<content-block-text>',
      '</content-block-text>',
      '</content-block-thinking>',
    ],
    clean: [
      SUB_AGENT_STARTS,
      '<content-block-thinking>',
      'hmm',
      '<content-block-text>',
      '</content-block-text>',
      '</content-block-thinking>',
    ],
  },
  {
    rule: 'xml.mismatched',
    triggers: ['<content-block-tool_result id="t" name="n"><![CDATA[x]]></content-block-tool_call>'],
    clean: ['<content-block-tool_result id="t" name="n"><![CDATA[x]]></content-block-tool_result>'],
  },
  {
    rule: 'xml.overlapping-blocks',
    triggers: [SUB_AGENT_STARTS, '<content-block-text>', '<content-block-thinking>'],
    clean: [SUB_AGENT_STARTS, '<content-block-text>', '</content-block-text>', '<content-block-thinking>'],
  },
  {
    rule: 'xml.unknown-tag',
    triggers: ['<content-block-rollback data="{}"></content-block-rollback>'],
    clean: [
      '<content-block-web_search_tool_result id="t" name="n"><![CDATA[x]]></content-block-web_search_tool_result>',
    ],
  },
  {
    rule: 'xml.unknown-tag',
    triggers: [
      '<content-block-text>',
      '<content-block-rollback data="{}"></content-block-rollback>',
      '</content-block-text>',
    ],
    clean: ['<content-block-text>', 'see <chart type="bar">{}</chart>', '</content-block-text>'],
  },
  {
    rule: 'xml.bad-entity',
    triggers: ['<meta_final data="{&quot;a&quot;: &quot;AT&T&bogus;&quot;}"></meta_final>'],
    clean: ['<meta_final data="{&quot;a&quot;: &quot;AT&amp;T&#x27;&#39;&quot;}"></meta_final>'],
  },
  {
    rule: 'xml.broken-cdata',
    triggers: ['<content-block-meta_files><![CDATA[{'],
    clean: ['<content-block-meta_files><![CDATA[{}]]></content-block-meta_files>'],
  },
  {
    rule: 'xml.broken-cdata',
    triggers: ['<content-block-error><![CDATA[a]]>b]]></content-block-error>'],
    clean: ['<content-block-tool_result id="t" name="n"><![CDATA[a]]]]><![CDATA[>b]]></content-block-tool_result>'],
  },
  {
    rule: 'xml.attr-json',
    triggers: ['<content-block-tool_call id="t" name="n" arguments="{&quot;a&quot;: }"></content-block-tool_call>'],
    clean: ['<content-block-tool_call id="t" name="n" arguments="{&quot;a&quot;: 1}"></content-block-tool_call>'],
  },
  {
    rule: 'xml.malformed',
    triggers: ['outside any block'],
    clean: ['<content-block-text>', 'inside a block', '</content-block-text>'],
  },
  { rule: 'xml.malformed', triggers: ['<meta_init></meta_init>'], clean: ['<meta_init data="{}"></meta_init>'] },
  {
    rule: 'xml.malformed',
    triggers: ['<content-block-tool_call id="t" name=n></content-block-tool_call>'],
    clean: ['<content-block-tool_call id="t" name="n" arguments="{}"></content-block-tool_call>'],
  },
  {
    rule: 'xml.subagent-unattributed',
    triggers: [metaInit({ agent_uuid: 'c', parent_agent_uuid: 'p' })],
    clean: [metaInit({ agent_uuid: 'p', parent_agent_uuid: null })],
  },
  {
    rule: 'xml.legacy-tag-name',
    triggers: ['<content-block-tool_call id="srvtoolu_1" name="bash" arguments="{}"></content-block-tool_call>'],
    clean: ['<content-block-tool_call id="toolu_1" name="bash" arguments="{}"></content-block-tool_call>'],
  },
  {
    rule: 'xml.unescaped-stream',
    triggers: ['<content-block-text>', 'C:\\temp'],
    clean: ['<content-block-text>', 'C:\\\\temp'],
  },
  {
    rule: 'stream.format-mismatch',
    triggers: [metaInit({ format: 'raw', agent_uuid: 'a' })],
    clean: [metaInit({ format: 'xml', agent_uuid: 'a' })],
  },
];

describe('rules', () => {
  test.each(RULE_CASES)('$rule: triggered by $triggers', ({ rule, triggers }) => {
    expect(rulesOf(decode(triggers))).toContain(rule);
  });
  test.each(RULE_CASES)('$rule: not triggered by $clean', ({ rule, clean }) => {
    expect(rulesOf(decode(clean))).not.toContain(rule);
  });

  it('locates findings at the event that caused them', () => {
    const run = decode([
      '<content-block-text>',
      'x',
      '</content-block-text>',
      '</content-block-text>',
      '<content-block-thinking>',
    ]);
    expect(run.diagnostics).toEqual([
      expect.objectContaining({
        rule: 'xml.mismatched',
        at: { frame: 3, byteStart: 3000, byteEnd: 3000 + '</content-block-text>'.length + 8 },
      }),
      expect.objectContaining({
        rule: 'xml.unclosed',
        at: { frame: 4, byteStart: 4000, byteEnd: 4000 + '<content-block-thinking>'.length + 8 },
      }),
    ]);
  });
});

describe('a block left open, and elements closed by the wrong tag', () => {
  it('regression: a tool_result closed by the wrong tag is xml.mismatched, not a never-terminated CDATA', () => {
    const run = decode([
      '<content-block-tool_result id="t1" name="lookup"><![CDATA[No such dish]]></content-block-tool_call>',
    ]);
    expect(rulesOf(run)).toEqual(['xml.mismatched']);
    expect(run.diagnostics[0]?.message).toContain(
      'ends with </content-block-tool_call> instead of </content-block-tool_result>',
    );
    expect(shapes(run)).toEqual([
      { type: 'tool_result', final: true, delta: 'No such dish', extras: { id: 't1', name: 'lookup' } },
    ]);
  });

  it('regression: items after a thinking block left open are reported, not silently taken as thinking text', () => {
    const wrongClose = '<content-block-tool_result id="t1" name="lookup"><![CDATA[ok]]></content-block-tool_call>';
    const run = decode([
      '<content-block-thinking>',
      'hmm',
      wrongClose,
      TOOL_CALL,
      '<content-block-text>',
      'Hi',
      '</content-block-text>',
    ]);
    expect(run.envelopes.map((e) => [e.type, e.delta])).toEqual([
      ['thinking', ''],
      ['thinking', 'hmm'],
      ['tool_result', 'ok'],
      ['tool_call', '{}'],
      ['text', ''],
      ['text', 'Hi'],
      ['text', ''],
    ]);
    // The open block is reported once, where the first item shows it was left open.
    const unclosed = run.diagnostics.filter((d) => d.rule === 'xml.unclosed');
    expect(unclosed).toEqual([expect.objectContaining({ at: expect.objectContaining({ frame: 2 }) as unknown })]);
    expect(unclosed[0]?.message).toContain(
      'The thinking block opened in event 0 was not closed before event 2 brought a complete <content-block-tool_result> item',
    );
    expect(rulesOf(run)).toEqual(['xml.unclosed', 'xml.mismatched']);
  });

  it('a block reported as left open still takes its late close tag, and is not reported again', () => {
    const run = decode([
      '<content-block-text>',
      'a',
      TOOL_CALL,
      'b',
      '</content-block-text>',
      '<content-block-text>',
      'c',
      '</content-block-text>',
    ]);
    expect(rulesOf(run)).toEqual(['xml.unclosed']);
    expect(run.envelopes.filter((e) => e.type === 'text').map((e) => [e.delta, e.final])).toEqual([
      ['', false],
      ['a', false],
      ['b', false],
      ['', true],
      ['', false],
      ['c', false],
      ['', true],
    ]);
  });

  it('reports a block left open once: a new block of its type opening does not report it again', () => {
    const run = decode(['<content-block-text>', 'He', TOOL_CALL, '<content-block-text>', 'Hello']);
    // The first block at the tool call; the second, never closed, at the end of the stream (located at its open tag).
    expect(rulesOf(run)).toEqual(['xml.unclosed', 'xml.unclosed']);
    expect(run.diagnostics.map((d) => d.at.frame)).toEqual([2, 3]);
  });

  it('text that merely ends like markup is no close tag: a tool_result cut inside its CDATA stays a broken CDATA', () => {
    const run = decode(['<content-block-tool_result id="t1" name="n"><![CDATA[<b>bold</b>']);
    expect(rulesOf(run)).toEqual(['xml.broken-cdata']);
    expect(run.envelopes[0]?.delta).toBe('<b>bold</b>');
  });

  it('inside a block, an item ending in a close tag outside the vocabulary is a delta', () => {
    const delta = '<content-block-tool_result id="x">see</b>';
    const run = decode(['<content-block-text>', delta, '</content-block-text>']);
    expect(run.envelopes[1]).toMatchObject({ type: 'text', delta });
    expect(run.diagnostics).toEqual([]);
  });
});

// ---- Real upstream streams ------------------------------------------------------------------

const manifest = readManifest();
const xmlFixtures = listSseFixtures().filter((f) => f.endsWith('.xml.sse'));

function decodeFixture(name: string): DialectRun {
  return runDialectOnChunks(createLegacyXmlDecoder, [readFixture(name)]);
}

function extrasOf(e: JsonEnvelope): Record<string, unknown> {
  const { type: _t, agent: _a, final: _f, delta: _d, ...extras } = e;
  return extras;
}

/** The item tag each decoded event came from, as the manifest counts them. */
function itemTags(run: DialectRun): Record<string, number> {
  const byFrame = new Map<number, EnvelopeInit>();
  for (const e of run.envelopes) if (!byFrame.has(e.frame)) byFrame.set(e.frame, e);
  const counts: Record<string, number> = {};
  const count = (tag: string): void => void (counts[tag] = (counts[tag] ?? 0) + 1);
  for (const e of byFrame.values()) {
    if (e.control === 'block-open') count(`content-block-${e.type}`);
    else if ((e.type === 'text' || e.type === 'thinking') && e.final) count(`/content-block-${e.type}`);
    else if (e.type === 'citation') count('citations');
    else if (['meta_init', 'meta_final', 'awaiting_frontend_tools'].includes(e.type)) count(e.type);
    else if (e.type === 'tool_result_image') count('content-block-tool_result');
    else if (e.type !== 'text' && e.type !== 'thinking') count(`content-block-${e.type}`);
  }
  return counts;
}

describe('upstream XML fixtures', () => {
  test.each(xmlFixtures)(
    '%s: every content event yields an envelope, none undecoded in a single-agent stream',
    (name) => {
      const run = decodeFixture(name);
      const covered = new Set(run.envelopes.map((e) => e.frame));
      expect(run.frames.filter((f) => !covered.has(f.seq))).toEqual([]);
      if (!name.startsWith('multi_agent')) expect(run.envelopes.filter((e) => e.control === 'undecoded')).toEqual([]);
    },
  );

  test.each(xmlFixtures.filter((f) => manifest[f]?.xml_item_tags !== undefined && !f.startsWith('multi_agent')))(
    '%s: item tags match MANIFEST xml_item_tags',
    (name) => {
      const expected = { ...manifest[name]?.xml_item_tags };
      // The manifest counts the text delta "</content" of probe_escaping as a tag; it is text.
      const lookalikes = expected['/content'] ?? 0;
      delete expected['/content'];
      const run = decodeFixture(name);
      expect(itemTags(run)).toEqual(expected);
      expect(run.envelopes.filter((e) => e.type === 'text' && e.delta === '</content')).toHaveLength(lookalikes);
    },
  );

  test.each(xmlFixtures.filter((f) => manifest[f]?.['xml_attr_json_checks'] !== undefined))(
    '%s: every attribute JSON parses, including those the demo parser fails on',
    (name) => {
      const checks = manifest[name]?.['xml_attr_json_checks'] as Record<string, number>;
      const run = decodeFixture(name);
      const keyOf: Record<string, string> = {
        meta_init: 'meta_init.data',
        meta_final: 'meta_final.data',
        awaiting_frontend_tools: 'awaiting_frontend_tools.data',
        tool_call: 'content-block-tool_call.arguments',
        server_tool_call: 'content-block-server_tool_call.arguments',
      };
      const parsed: Record<string, number> = {};
      for (const e of run.envelopes) {
        const key = keyOf[e.type];
        if (key === undefined) continue;
        JSON.parse(e.delta);
        parsed[`${key}:proper:ok`] = (parsed[`${key}:proper:ok`] ?? 0) + 1;
      }
      expect(parsed).toEqual(Object.fromEntries(Object.entries(checks).filter(([k]) => k.includes(':proper:'))));
      expect(rulesOf(run)).not.toContain('xml.attr-json');
    },
  );

  test.each(['example_1', 'json_stream', 'frontend_tools', 'frontend_tools_resume', 'probe_citations'])(
    '%s: text and thinking blocks equal the JSON run, block by block',
    (stem) => {
      expect(manifest[`${stem}.xml.sse`]?.['xml_text_roundtrip_exact']).toBe(true);
      const xml = decodeFixture(`${stem}.xml.sse`).envelopes;
      const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
      for (const type of ['text', 'thinking']) {
        expect(deltaBlocks(xml, type).map((b) => b.join(''))).toEqual(deltaBlocks(json, type).map((b) => b.join('')));
      }
    },
  );

  test.each([
    'example_1',
    'json_stream',
    'frontend_tools',
    'frontend_tools_resume',
    'probe_citations',
    'probe_escaping',
  ])("%s: buffered payloads parse to the JSON run's values", (stem) => {
    const xml = decodeFixture(`${stem}.xml.sse`).envelopes;
    const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
    for (const type of ['tool_call', 'server_tool_call', 'meta_final', 'awaiting_frontend_tools', 'meta_files']) {
      expect(payloads(xml, type).map((p) => JSON.parse(p) as unknown)).toEqual(
        payloads(json, type).map((p) => JSON.parse(p) as unknown),
      );
    }
    const withoutFormat = (p: string): unknown => ({ ...(JSON.parse(p) as object), format: undefined });
    expect(payloads(xml, 'meta_init').map(withoutFormat)).toEqual(payloads(json, 'meta_init').map(withoutFormat));
    expect(payloads(xml, 'server_tool_result')).toEqual(payloads(json, 'server_tool_result'));
  });

  it("probe_escaping: every text and thinking delta equals the JSON run's, except what the CR framing bug cut off", () => {
    const xml = decodeFixture('probe_escaping.xml.sse').envelopes;
    const json = jsonFixtureEnvelopes('probe_escaping.json.sse');
    for (const type of ['text', 'thinking']) {
      const expected = deltaBlocks(json, type).map((block) => block.map((d) => d.split('\r')[0]));
      expect(deltaBlocks(xml, type)).toEqual(expected);
    }
    const text = deltaBlocks(xml, 'text')[0]?.join('') ?? '';
    for (const hard of [
      'backslash-n: \\n',
      'LF:\nnext',
      'quotes: "q" \'s\'',
      '<content-block-text> </content-block-text> <chart>x</chart>',
      '&amp; &lt;',
      ']]>',
      'naïve 日本 😀',
      '\u2028',
      'double backslash: \\\\ end',
    ]) {
      expect(text).toContain(hard);
    }
  });

  it("probe_escaping: the tool result equals the JSON run's up to what its escaping cannot carry (CR, literal backslash-n)", () => {
    const xml = payloads(decodeFixture('probe_escaping.xml.sse').envelopes, 'tool_result');
    const json = payloads(jsonFixtureEnvelopes('probe_escaping.json.sse'), 'tool_result');
    expect(xml).toEqual(json.map((p) => p.replaceAll('\r\n', '\n').replaceAll('\r', '\n').replaceAll('\\n', '\n')));
    expect(xml[0]).toContain('cdata-end: ]]> |');
  });

  it('probe_escaping: the unprotected ]]> in the server tool result is reported and its content kept whole', () => {
    const run = decodeFixture('probe_escaping.xml.sse');
    expect(run.diagnostics.filter((d) => d.rule === 'xml.broken-cdata')).toHaveLength(1);
    expect(payloads(run.envelopes, 'server_tool_result')[0]).toContain('title=\'A \\"quoted\\" title ]]> & more\'');
  });

  it("frontend_tools: the multimodal tool result decodes to the JSON run's envelopes", () => {
    const pick = (e: { type: string }): boolean => e.type === 'tool_result' || e.type === 'tool_result_image';
    const xml = decodeFixture('frontend_tools.xml.sse').envelopes.filter(pick);
    const json = jsonFixtureEnvelopes('frontend_tools.json.sse').filter(pick);
    expect(xml.map((e) => ({ type: e.type, final: e.final, delta: e.delta, extras: e.extras }))).toEqual(
      json.map((e) => ({ type: e.type, final: e.final, delta: e.delta, extras: extrasOf(e) })),
    );
    expect(xml.map((e) => e.type)).toEqual(['tool_result', 'tool_result', 'tool_result_image', 'tool_result']);
  });

  it("probe_citations: the three citations equal the JSON run's citation envelopes", () => {
    const xml = decodeFixture('probe_citations.xml.sse').envelopes.filter((e) => e.type === 'citation');
    const json = jsonFixtureEnvelopes('probe_citations.json.sse').filter((e) => e.type === 'citation');
    expect(json).toHaveLength(3);
    expect(xml.map((e) => ({ final: e.final, delta: e.delta, extras: e.extras, agent: e.agent }))).toEqual(
      json.map((e) => ({ final: e.final, delta: e.delta, extras: extrasOf(e), agent: e.agent })),
    );
  });

  it('every fixture with a meta_init stamps its agent on all envelopes', () => {
    for (const stem of ['example_1', 'json_stream', 'frontend_tools', 'probe_citations', 'probe_escaping']) {
      const agents = new Set(decodeFixture(`${stem}.xml.sse`).envelopes.map((e) => e.agent));
      expect([...agents]).toEqual([...new Set(jsonFixtureEnvelopes(`${stem}.json.sse`).map((e) => e.agent))]);
    }
  });

  it('frontend_tools_resume: a continuation leg without meta_init is stamped with defaultAgent', () => {
    const run = runDialectOnChunks(createLegacyXmlDecoder, [readFixture('frontend_tools_resume.xml.sse')], {
      defaultAgent: ROOT,
    });
    expect(new Set(run.envelopes.map((e) => e.agent))).toEqual(new Set([ROOT]));
  });

  it('multi_agent: sub-agents are reported once, only their meta_init attributed, and no item is lost', () => {
    const run = decodeFixture('multi_agent.xml.sse');
    const parent = '22222222-2222-4222-8222-222222222222';
    expect(run.envelopes.filter((e) => e.type === 'meta_init').map((e) => e.agent)).toEqual([
      parent,
      '33333333-3333-4333-8333-333333333333',
      '44444444-4444-4444-8444-444444444444',
    ]);
    expect(new Set(run.envelopes.filter((e) => e.type !== 'meta_init').map((e) => e.agent))).toEqual(new Set([parent]));
    expect(rulesOf(run).filter((r) => r === 'xml.subagent-unattributed')).toHaveLength(1);
    expect(rulesOf(run)).toEqual(expect.arrayContaining(['xml.overlapping-blocks', 'xml.mismatched', 'xml.unclosed']));
    // Every item that is no tag reaches an envelope: as a delta, or kept undecoded.
    const notTags = run.frames.filter(
      (f) =>
        !/^<\/?(content-block-(text|thinking))>$/.test(f.data) &&
        !f.data.startsWith('<content-block-') &&
        !f.data.startsWith('<meta_'),
    );
    const carried = run.envelopes.filter(
      (e) => (e.type === 'text' || e.type === 'thinking' || e.control === 'undecoded') && e.delta !== '',
    );
    expect(carried.map((e) => e.frame)).toEqual(expect.arrayContaining(notTags.map((f) => f.seq)));
  });

  it('xml_stream_examples.captured: the pre-escaping era is recognised and its JSON payloads are not corrupted', () => {
    const run = decodeFixture('xml_stream_examples.captured.xml.sse');
    expect(rulesOf(run).filter((r) => r === 'xml.unescaped-stream')).toHaveLength(1);
    expect(rulesOf(run).filter((r) => r === 'xml.legacy-tag-name')).toHaveLength(2);
    const calls = run.envelopes.filter((e) => e.type === 'server_tool_call');
    const results = run.envelopes.filter((e) => e.type === 'server_tool_result');
    expect(calls).toHaveLength(6);
    expect(results).toHaveLength(6);
    for (const e of [...calls, ...results]) expect(() => JSON.parse(e.delta) as unknown).not.toThrow();
    expect(results.map((e) => e.extras['name'])).toContain('bash_code_execution_tool_result');
    // The pretty-printed meta_files item was cut at its first raw newline.
    expect(run.envelopes.find((e) => e.type === 'meta_files')?.delta).toBe('{');
    expect(rulesOf(run)).toContain('xml.broken-cdata');
    expect(run.envelopes.filter((e) => e.control === 'undecoded')).toEqual([]);
  });

  it('bug_xml_at_head: the meta_init before the error frame decodes', () => {
    expect(shapes(decodeFixture('bug_xml_at_head.xml.sse')).map((e) => e.type)).toEqual(['meta_init']);
  });

  test.each(xmlFixtures)('%s: results do not depend on how the bytes were chunked', (name) => {
    const bytes = readFixture(name);
    const whole = runDialectOnChunks(createLegacyXmlDecoder, [bytes]);
    for (const chunking of chunkings(bytes, [7, 99])) {
      const run = runDialectOnChunks(createLegacyXmlDecoder, chunking.chunks);
      expect({ chunking: chunking.name, envelopes: run.envelopes, diagnostics: run.diagnostics }).toEqual({
        chunking: chunking.name,
        envelopes: whole.envelopes,
        diagnostics: whole.diagnostics,
      });
    }
  });
});

describe('parsed attributes', () => {
  it('hands each JSON attribute it parsed on with its envelope, and nothing when the JSON is invalid', () => {
    const handed: [string, unknown][] = [];
    const decoder = createLegacyXmlDecoder({
      onEnvelope: (e, payload) => handed.push([e.type, payload]),
      onDiagnostic: () => undefined,
    });
    const items = [
      metaInit({ format: 'xml', agent_uuid: ROOT }),
      xmlStreamEscape(
        `<content-block-tool_call id="t1" name="f" arguments="${htmlEscape('{"path": "a\\nb"}')}"></content-block-tool_call>`,
      ),
      `<meta_final data="${htmlEscape('{"stop_reason": "end_turn"')}"></meta_final>`,
      '<content-block-text>',
    ];
    items.forEach((item, i) => decoder.push(frameOf(item, i)));
    expect(handed).toEqual([
      ['meta_init', { format: 'xml', agent_uuid: ROOT }],
      ['tool_call', { path: 'a\nb' }],
      ['meta_final', undefined],
      ['text', undefined],
    ]);
  });
});
