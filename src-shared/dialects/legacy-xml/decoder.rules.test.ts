import { describe, expect, it, test } from 'vitest';
import { rulesOf } from '../../../src-main/testing/dialects';
import { decodeXml as decode, metaInit, shapes } from '../../../src-main/testing/legacy-xml';

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
