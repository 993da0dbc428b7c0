import { describe, expect, it } from 'vitest';
import { createInlineDocument, parseSegments, type InlineFinding } from './collect';
import { MAX_TAG } from './tags';
import { DEFAULT_INLINE_OPTIONS, parseToolList, type InlineMode, type InlineOptions } from './types';

const auto = DEFAULT_INLINE_OPTIONS;
const withMode = (mode: InlineMode): InlineOptions => ({ ...auto, mode });
const brief = (text: string, options: InlineOptions = auto) =>
  parseSegments(text, options).segments.map((s) => ({
    type: s.type,
    content: s.content,
    ...(Object.keys(s.params).length ? { params: s.params } : {}),
    ...(Object.keys(s.metadata).length ? { metadata: s.metadata } : {}),
    ...(s.complete ? {} : { complete: false }),
  }));
const rules = (text: string, options: InlineOptions = auto) => parseSegments(text, options).findings.map((f) => f.rule);

describe('the inline parser', () => {
  it('keeps plain text one text segment', () => {
    expect(brief('Just an answer, with a < b and [brackets] and <b>html</b>.')).toEqual([
      { type: 'text', content: 'Just an answer, with a < b and [brackets] and <b>html</b>.' },
    ]);
  });

  it("reads the issue's output contract for the XML tool protocol", () => {
    const { segments } = parseSegments('<thinking>why</thinking><search><query>q</query></search>', auto);
    expect(
      segments.map(({ id, type, metadata, params, complete }) => ({ id, type, metadata, params, complete })),
    ).toEqual([
      { id: 'seg_1', type: 'reasoning', metadata: {}, params: {}, complete: true },
      { id: 'seg_2', type: 'tool_call', metadata: { tool_name: 'search' }, params: { query: 'q' }, complete: true },
    ]);
  });

  it('takes the tool tags from the configuration', () => {
    const tools = parseToolList('lookup:term,fetch');
    expect(tools).toEqual([
      { name: 'lookup', required: ['term'] },
      { name: 'fetch', required: [] },
    ]);
    const options = { mode: 'auto' as const, tools };
    expect(brief('<lookup><term>x</term></lookup>', options)).toEqual([
      { type: 'tool_call', content: '<term>x</term>', params: { term: 'x' }, metadata: { tool_name: 'lookup' } },
    ]);
    // search is not configured any more: it is text, like any unknown tag.
    expect(brief('<search><query>x</query></search>', options)).toEqual([
      { type: 'text', content: '<search><query>x</query></search>' },
    ]);
  });

  it('parses `search:query+path` as two required parameters', () => {
    expect(parseToolList(' search:query+path , extract:file_path ,query')).toEqual([
      { name: 'search', required: ['query', 'path'] },
      { name: 'extract', required: ['file_path'] },
      { name: 'query', required: [] },
    ]);
  });

  it("reads each mode's family only", () => {
    const text = '<run_bash>ls</run_bash>[[SEG_START {"type":"reasoning"}]]hm[[SEG_END]]';
    expect(brief(text, withMode('auto')).map((s) => s.type)).toEqual(['run_bash', 'reasoning']);
    expect(brief(text, withMode('xml'))).toEqual([
      { type: 'run_bash', content: 'ls' },
      { type: 'text', content: '[[SEG_START {"type":"reasoning"}]]hm[[SEG_END]]' },
    ]);
    expect(brief(text, withMode('sentinel'))).toEqual([
      { type: 'text', content: '<run_bash>ls</run_bash>' },
      { type: 'reasoning', content: 'hm' },
    ]);
    expect(brief(text, withMode('off'))).toEqual([{ type: 'text', content: text }]);
  });

  it('decodes entities and CDATA in parameter values, not in reasoning or file content', () => {
    expect(brief('<thinking>a &lt; b</thinking><search><query><![CDATA[x]]>&amp;y</query></search>')).toEqual([
      { type: 'reasoning', content: 'a &lt; b' },
      {
        type: 'tool_call',
        content: '<query><![CDATA[x]]>&amp;y</query>',
        params: { query: 'x&y' },
        metadata: { tool_name: 'search' },
      },
    ]);
  });

  it('reads a parameter value up to its own closing tag, whatever outer closing tag it holds', () => {
    expect(brief('<search><query>a</search>b</query></search>')[0]?.params).toEqual({ query: 'a</search>b' });
  });

  it('keeps a tag candidate longer than MAX_TAG as text', () => {
    const long = `<write_file path="${'x'.repeat(MAX_TAG)}">body</write_file>`;
    const segments = brief(long);
    expect(segments[0]?.type).toBe('text');
    expect(segments.map((s) => s.content).join('')).toContain('body');
  });

  it('ends a `[[[SEG_START` run with the sentinel at the second bracket', () => {
    expect(brief('[[[SEG_START {"type":"run_bash"}]]ls[[SEG_END]]')).toEqual([
      { type: 'text', content: '[' },
      { type: 'run_bash', content: 'ls' },
    ]);
  });

  it("streams a file tool's content only once its path is known, and the path first", () => {
    const events: string[] = [];
    const doc = createInlineDocument(auto);
    doc.parser.push('<tool name="write_file"><arguments><arg name="content">abc');
    events.push(`before path: ${doc.segments.length} segments, ${doc.parser.held()} held`);
    doc.parser.push('</arg><arg name="path">/p</arg></arguments></tool>');
    doc.parser.end();
    expect(events).toEqual(['before path: 0 segments, 3 held']);
    expect(doc.segments.map((s) => [s.type, s.metadata, s.content])).toEqual([['write_file', { path: '/p' }, 'abc']]);
  });

  it('keeps an end marker that no closing tag follows as file content (issue 23 §2.1)', () => {
    const file = '// a line with __END_CONTENT__ in it\nconst END = "__END_CONTENT__";\nx';
    const text = `<tool name="write_file"><arguments><arg name="path">/a.js</arg><arg name="content">__START_CONTENT__\n${file}\n__END_CONTENT__\n</arg></arguments></tool>`;
    expect(brief(text)).toEqual([
      { type: 'write_file', content: `${file}\n`, params: { path: '/a.js' }, metadata: { path: '/a.js' } },
    ]);
    // The same, fed one character at a time.
    const doc = createInlineDocument(auto);
    for (const c of text) doc.parser.push(c);
    doc.parser.end();
    expect(doc.segments[0]?.content).toBe(`${file}\n`);
  });

  it('keeps an end marker followed by a closing tag of another name as content', () => {
    const text =
      '<tool name="write_file"><arguments><arg name="path">/a</arg><arg name="content">__START_CONTENT__\na __END_CONTENT__</b>\n__END_CONTENT__</arg></arguments></tool>';
    expect(brief(text)[0]?.content).toBe('a __END_CONTENT__</b>\n');
  });

  it('strips __START_PATCH__ / __END_PATCH__ around a patch, with the same end-marker rule (issue 23 §2.2)', () => {
    const diff = '--- a/x.md\n+++ b/x.md\n-old __END_PATCH__ mention\n+new';
    const text = `<tool name="patch_file"><arguments><arg name="path">x.md</arg><arg name="patch">\n__START_PATCH__\n${diff}\n__END_PATCH__\n</arg></arguments></tool>`;
    expect(brief(text)).toEqual([
      { type: 'patch_file', content: `${diff}\n`, params: { path: 'x.md' }, metadata: { path: 'x.md' } },
    ]);
  });

  it('shows a patch without markers as it came', () => {
    expect(
      brief(
        '<tool name="patch_file"><arguments><arg name="path">x</arg><arg name="diff">-a\n+b</arg></arguments></tool>',
      )[0]?.content,
    ).toBe('-a\n+b');
  });

  describe('a tag left open when the text ends (issue 23 §2.4)', () => {
    it('reads the open parameter and those after it, each up to the next parameter tag', () => {
      expect(brief('<search><query>login &amp; session<path>src/auth</path><allow_tests>true')).toEqual([
        {
          type: 'tool_call',
          content: '<query>login &amp; session<path>src/auth</path><allow_tests>true',
          params: { query: 'login & session', path: 'src/auth', allow_tests: 'true' },
          metadata: { tool_name: 'search' },
          complete: false,
        },
      ]);
      const { findings } = parseSegments('<search><query>login', auto);
      expect(findings.map((f) => [f.rule, f.message])).toEqual([
        ['inline.unclosed', expect.stringContaining('nor is its <query> parameter') as unknown],
      ]);
    });

    it("reads the <arg> parameters of an open <tool name>, and a file tool's path", () => {
      expect(
        brief('<tool name="read_file"><arguments><arg name="path">README.md<arg name="limit">40')[0]?.params,
      ).toEqual({ path: 'README.md', limit: '40' });
      expect(brief('<tool name="write_file"><arguments><arg name="path">/a.md<arg name="content">body')).toEqual([
        {
          type: 'write_file',
          content: 'body',
          params: { path: '/a.md' },
          metadata: { path: '/a.md' },
          complete: false,
        },
      ]);
    });

    it("ends an open parameter at the tool's closing tag", () => {
      expect(brief('<search><query>abc</search>')[0]?.params).toEqual({ query: 'abc' });
    });

    it('still reads the tool call after an unclosed <thinking>', () => {
      expect(brief('<thinking>I should search.\n<search><query>q</query></search>')).toEqual([
        { type: 'reasoning', content: 'I should search.\n', complete: false },
        { type: 'tool_call', content: '<query>q</query>', params: { query: 'q' }, metadata: { tool_name: 'search' } },
      ]);
      expect(rules('<thinking>I should search.\n<search><query>q</query></search>')).toEqual(['inline.unclosed']);
      expect(
        brief('<thinking>done</thinking><attempt_completion><result>r</result></attempt_completion>').map(
          (s) => s.type,
        ),
      ).toEqual(['reasoning', 'completion']);
    });

    it('keeps a <tool> tag without a name as text', () => {
      expect(brief('<tool><arguments><arg name="a">1</arg></arguments></tool>')).toEqual([
        { type: 'text', content: '<tool><arguments><arg name="a">1</arg></arguments></tool>' },
      ]);
    });
  });

  it('survives input that is nothing but markers', () => {
    const text = '<'.repeat(50_000) + '[['.repeat(50_000) + '</'.repeat(20_000);
    const doc = createInlineDocument(auto);
    for (let i = 0; i < text.length; i += 7) doc.parser.push(text.slice(i, i + 7));
    doc.parser.end();
    expect(doc.segments.map((s) => s.content).join('')).toBe(text);
  });
});

/** Every marker the parser holds back, in a text where it is complete, with the text before it. */
const MARKERS: { name: string; before: string; marker: string; after: string }[] = [
  { name: 'opening <thinking>', before: 'Hi ', marker: '<thinking>', after: 'x</thinking>' },
  { name: 'closing </thinking>', before: '<thinking>abc', marker: '</thinking>', after: 'tail' },
  { name: 'opening tool tag', before: 'x ', marker: '<search>', after: '<query>q</query></search>' },
  {
    name: 'tool tag inside an unclosed <thinking>',
    before: '<thinking>abc',
    marker: '<search>',
    after: '<query>q</query></search>',
  },
  { name: 'closing tool tag', before: '<search><query>q</query>', marker: '</search>', after: '' },
  { name: 'closing parameter', before: '<search><query>q', marker: '</query>', after: '</search>' },
  { name: 'CDATA open', before: '<search><query>q', marker: '<![CDATA[', after: 'x]]></query></search>' },
  { name: 'CDATA close', before: '<search><query><![CDATA[q', marker: ']]>', after: '</query></search>' },
  { name: 'opening <write_file path>', before: 'see ', marker: '<write_file path="/a.py">', after: 'x</write_file>' },
  { name: 'closing </write_file>', before: '<write_file path="/a.py">print(1)', marker: '</write_file>', after: '' },
  { name: 'closing </run_bash>', before: '<run_bash>ls', marker: '</run_bash>', after: '' },
  {
    name: 'opening <tool name>',
    before: 'go ',
    marker: '<tool name="read_file">',
    after: '<arguments></arguments></tool>',
  },
  {
    name: 'closing </arg> of a file tool',
    before: '<tool name="run_bash"><arguments><arg name="command">ls',
    marker: '</arg>',
    after: '</arguments></tool>',
  },
  {
    name: '__START_CONTENT__',
    before: '<tool name="write_file"><arguments><arg name="path">/a</arg><arg name="content">',
    marker: '__START_CONTENT__',
    after: '\nx\n__END_CONTENT__</arg></arguments></tool>',
  },
  // An end marker is decided by the closing tag after it: both are held until then.
  {
    name: '__END_CONTENT__ and </arg>',
    before: '<tool name="write_file"><arguments><arg name="path">/a</arg><arg name="content">__START_CONTENT__\nx\n',
    marker: '__END_CONTENT__ \n</arg>',
    after: '</arguments></tool>',
  },
  {
    name: '__START_PATCH__',
    before: '<tool name="patch_file"><arguments><arg name="path">/a</arg><arg name="patch">',
    marker: '__START_PATCH__',
    after: '\n-a\n__END_PATCH__</arg></arguments></tool>',
  },
  {
    name: '__END_PATCH__ and </arg>',
    before: '<tool name="patch_file"><arguments><arg name="path">/a</arg><arg name="patch">__START_PATCH__\n-a\n',
    marker: '__END_PATCH__</arg>',
    after: '</arguments></tool>',
  },
  {
    name: 'sentinel start',
    before: 'so ',
    marker: '[[SEG_START {"type":"write_file","path":"/a"}]]',
    after: 'x[[SEG_END]]',
  },
  { name: 'sentinel end', before: '[[SEG_START {"type":"run_bash"}]]ls', marker: '[[SEG_END]]', after: '' },
];

function snapshot(pieces: readonly string[]): { segments: string; held: number } {
  const doc = createInlineDocument(auto);
  for (const piece of pieces) doc.parser.push(piece);
  return { segments: JSON.stringify(doc.segments), held: doc.parser.held() };
}

describe('holdback: a live block never shows part of a marker', () => {
  describe.each(MARKERS)('$name', ({ before, marker, after }) => {
    const shownBefore = snapshot([before]).segments;
    const whole = parseSegments(before + marker + after, auto);

    it.each(Array.from({ length: marker.length - 1 }, (_, i) => i + 1))(
      'cut after %i character(s) of the marker',
      (k) => {
        const live = snapshot([before, marker.slice(0, k)]);
        // Nothing of the marker is shown, and what is held is exactly the part of it that arrived.
        expect(live.segments).toBe(shownBefore);
        expect(live.held).toBe(k);
        // The next delta decides: the result is that of the whole text.
        const doc = createInlineDocument(auto);
        doc.parser.push(before + marker.slice(0, k));
        doc.parser.push(marker.slice(k) + after);
        doc.parser.end();
        expect(doc.segments).toEqual(whole.segments);
      },
    );

    it('releases what it held when the next delta shows it was not the marker', () => {
      const doc = createInlineDocument(auto);
      doc.parser.push(before + marker.slice(0, -1));
      // A "<" can complete none of the markers here; it may only start a new one.
      doc.parser.push('<');
      expect(doc.parser.held()).toBeLessThanOrEqual(1);
      expect(doc.segments.map((s) => s.content).join('')).toContain(marker.slice(0, -1));
    });
  });
});

describe('protocol diagnostics', () => {
  const cases: { rule: InlineFinding['rule']; triggers: string; mustNot: string; options?: InlineOptions }[] = [
    {
      rule: 'inline.unclosed',
      triggers: '<thinking>a</thinking><search><query>x</query>',
      mustNot: '<thinking>a</thinking><search><query>x</query></search>',
    },
    {
      rule: 'inline.mismatched-close',
      triggers: '<search><query>x</query></extract></search>',
      mustNot: '<search><query>x</extract></query></search>',
    },
    {
      rule: 'inline.no-action',
      triggers: '<thinking>hmm</thinking>Plain answer.',
      mustNot: 'Plain answer with no protocol at all.',
    },
    {
      rule: 'inline.multiple-actions',
      triggers: '<search><query>a</query></search><extract><file_path>b</file_path></extract>',
      mustNot: '<thinking>x</thinking><search><query>a</query></search>\n',
    },
    {
      rule: 'inline.missing-param',
      triggers: '<search><path>./src</path></search>',
      mustNot: '<query><path>./src</path></query>',
    },
    {
      rule: 'inline.invalid-sentinel',
      triggers: '[[SEG_START {"path":"/a"}]]x[[SEG_END]]',
      mustNot: '[[SEG_START {"type":"write_file","path":"/a"}]]x[[SEG_END]] and [[links]]',
    },
    {
      rule: 'inline.unclosed',
      triggers: '<thinking>a\n<search><query>x</query></search>',
      mustNot: '<thinking>a <b>c</b></thinking><search><query>x</query></search>',
    },
    {
      rule: 'inline.unclosed',
      triggers: 'x {"name": "read", "arguments": {"path": "a"',
      mustNot: 'x {"name": "Bob", "age": 3',
      options: withMode('json'),
    },
    {
      rule: 'inline.missing-param',
      triggers: '[{"name": "a", "arguments": {}}, {"arguments": {}}]',
      mustNot: '[{"name": "a", "arguments": {}}, {"name": "b", "args": {}}]',
      options: withMode('json'),
    },
    {
      rule: 'inline.text-after-action',
      triggers: '<attempt_completion><result>done</result></attempt_completion>\nP.S. one more thing',
      mustNot: '<thinking>x</thinking>\n<attempt_completion><result>done</result></attempt_completion>\n\n',
    },
  ];

  it.each(cases)('$rule is reported when it applies', ({ rule, triggers, options }) => {
    expect(rules(triggers, options)).toContain(rule);
  });

  it.each(cases)('$rule is not reported for well-formed text', ({ rule, mustNot, options }) => {
    expect(rules(mustNot, options)).not.toContain(rule);
  });

  it('inline.missing-param follows the configured required parameters', () => {
    const lenient = { mode: 'auto' as const, tools: parseToolList('search') };
    expect(rules('<search><path>./src</path></search>', lenient)).not.toContain('inline.missing-param');
  });

  it('inline.unclosed names the sentinel that never ended', () => {
    const { findings } = parseSegments('[[SEG_START {"type":"write_file","path":"/a"}]]print(1)', auto);
    expect(findings.map((f) => f.rule)).toEqual(['inline.unclosed']);
    expect(findings[0]?.message).toContain('[[SEG_END]]');
  });

  it('reports nothing in off mode', () => {
    expect(rules('<search><path>x</path>', withMode('off'))).toEqual([]);
  });
});
