import { describe, expect, it, test } from 'vitest';
import { rulesOf, runDialectOnChunks } from '../../../src-main/testing/dialects';
import { decodeXml as decode, metaInit, ROOT, shapes } from '../../../src-main/testing/legacy-xml';
import { createLegacyXmlDecoder } from './decoder';
import { htmlEscape } from './entities';
import { xmlStreamEscape } from './escaping';
import { frameOf } from '../../testing/frames';

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
