import { describe, expect, it, test } from 'vitest';
import { unwrapCdata } from './cdata';
import { citationExtras, readCitations } from './citations';
import { findEmbeddedTags } from './embedded';
import { decodeAttributeValue, htmlEscape } from './entities';
import {
  escapeToolResultCdata,
  unescapeFormatterItem,
  unescapeLongAscii,
  unescapeToolResultCdata,
  xmlStreamEscape,
} from './escaping';
import { isMarkupError, readStartTag, tagNameAt } from './markup';
import { readToolResultBody } from './tool-result';
import { isXmlItem, xmlItemTag } from './vocabulary';
import { seededRandom } from '../../sse/rechunk';
import { encodeUtf8 } from '../../text/utf8';

describe('unescapeFormatterItem (inverse of stream_xml_to_aqueue)', () => {
  test.each([
    ['real LF', 'a\nb'],
    ['literal backslash-n', 'a\\nb'],
    ['double backslash', 'C:\\\\temp'],
    ['backslash before LF', 'x\\\ny'],
    ['windows path', 'C:\\temp\\new'],
    ['trailing backslash', 'end\\'],
    ['no escapes', 'plain <chart>x</chart> &amp;'],
  ])('round-trips %s', (_name, original) => {
    expect(unescapeFormatterItem(xmlStreamEscape(original))).toBe(original);
  });

  it('scans left to right: \\\\n is a backslash then n, not a newline', () => {
    expect(unescapeFormatterItem('\\\\n')).toBe('\\n');
    expect(unescapeFormatterItem('\\\\\\n')).toBe('\\\n');
  });

  it('gives the index of the first backslash no escape explains instead of text', () => {
    expect(unescapeFormatterItem('say \\"hi\\"')).toBe(4);
    expect(unescapeFormatterItem('ok \\\\ and \\n then \\u2713')).toBe(18);
    expect(unescapeFormatterItem(xmlStreamEscape('any \\ text \\" here\n'))).toBe('any \\ text \\" here\n');
    expect(unescapeFormatterItem('ends with \\')).toBe(10);
  });

  it('gives the same result for long items, which are unescaped as bytes when ASCII', () => {
    /** The definition: a left-to-right scan, one character at a time. */
    const reference = (text: string): string | number => {
      let out = '';
      for (let i = 0; i < text.length; i++) {
        if (text[i] !== '\\') out += text[i];
        else if (text[i + 1] === '\\') out += text[++i];
        else if (text[i + 1] === 'n') out += (++i, '\n');
        else return i;
      }
      return out;
    };
    const random = seededRandom(14);
    const pieces = ['\\\\', '\\n', 'n', 'abc', '\n', '"', ' ', '&quot;', '\\', 'é', '🚀'];
    for (let run = 0; run < 300; run++) {
      // A third of the runs ASCII and well escaped, a third with unpaired backslashes, a third also with non-ASCII characters.
      const allowed = pieces.slice(0, run % 3 === 0 ? pieces.length : run % 3 === 1 ? 9 : 8);
      let text = '';
      while (text.length < 1100 + (run % 7) * 300) text += allowed[Math.floor(random() * allowed.length)];
      expect(unescapeFormatterItem(text)).toEqual(reference(text));
      // The decoder takes the bytewise result without copying the item first: the same text, or
      // null (then it goes the general way) for non-ASCII and for an unpaired backslash.
      const expected = reference(text);
      const ascii = encodeUtf8(text).length === text.length;
      expect(unescapeLongAscii(text)).toBe(
        typeof expected === 'string' && ascii && text.includes('\\') ? expected : null,
      );
    }
    expect(unescapeLongAscii('short \\n')).toBeNull();
    const original = `${'{"path": "C:\\\\temp", "text": "a\\nb"}\n'.repeat(60)}\\`;
    expect(original.length).toBeGreaterThan(1024);
    expect(unescapeFormatterItem(xmlStreamEscape(original))).toBe(original);
  });
});

describe('unescapeToolResultCdata (inverse of _escape_tool_result_cdata)', () => {
  it('turns \\n into LF and joins ]]> splits, without touching other backslashes', () => {
    expect(unescapeToolResultCdata('a\\nb ]]]]><![CDATA[> \\\\ end', true)).toBe('a\nb ]]> \\\\ end');
  });
  it('round-trips what upstream escapes, with CR and CRLF folded to LF', () => {
    expect(unescapeToolResultCdata(escapeToolResultCdata('a ]]> b\r\nc\rd\ne'), true)).toBe('a ]]> b\nc\nd\ne');
  });
  it('leaves \\n alone in a stream that predates escaping', () => {
    expect(unescapeToolResultCdata('a\\nb', false)).toBe('a\\nb');
  });
});

test('htmlEscape is html.escape(quote=True)', () => {
  expect(htmlEscape(`a&b<c>"d'`)).toBe('a&amp;b&lt;c&gt;&quot;d&#x27;');
});

describe('decodeAttributeValue', () => {
  it('decodes what Python html.escape(quote=True) writes', () => {
    expect(decodeAttributeValue('&quot;q&quot; &#x27;s&#x27; &amp;amp; &lt;b&gt;')).toEqual({
      value: '"q" \'s\' &amp; <b>',
      problems: [],
    });
  });
  it('decodes numeric references and any HTML named one', () => {
    expect(decodeAttributeValue('&#65;&#x1F600;&eacute;&#128;').value).toBe('A😀é€');
  });
  test.each([
    ['bare ampersand', 'a & b', '&'],
    ['missing semicolon', 'AT&T&amp', '&'],
    ['unknown name', 'x &bogus; y', '&bogus;'],
    ['surrogate', '&#xD800;', '&#xD800;'],
    ['zero', '&#0;', '&#0;'],
    ['out of range', '&#x110000;', '&#x110000;'],
  ])('keeps a bad reference verbatim and reports it: %s', (_name, raw, text) => {
    const decoded = decodeAttributeValue(raw);
    expect(decoded.problems[0]?.text).toBe(text);
    expect(decoded.value).toContain(text);
  });
});

describe('markup', () => {
  it('reads a start tag with double- and single-quoted attributes', () => {
    const text = '<image src="/a?x=1&amp;y" media_type=\'image/png\' /> after';
    const tag = readStartTag(text);
    expect(tag).toEqual({
      name: 'image',
      attributes: [
        { name: 'src', raw: '/a?x=1&amp;y' },
        { name: 'media_type', raw: 'image/png' },
      ],
      end: text.indexOf(' after'),
      selfClosing: true,
    });
  });
  test.each(['<a b>', '<a b=c>', '<a b="c>', '<a', '<a /x>'])('rejects %s', (text) => {
    expect(isMarkupError(readStartTag(text))).toBe(true);
  });
  it('names only real tags', () => {
    expect(tagNameAt('<content-block-text>')).toBe('content-block-text');
    expect(tagNameAt('<co')).toBe('co');
    expect(tagNameAt('</content-block-text>')).toBeNull();
    expect(tagNameAt('<![CDATA[x]]>')).toBeNull();
    expect(tagNameAt('<3 is love')).toBeNull();
  });
  it('recognises vocabulary items', () => {
    expect(xmlItemTag('<meta_init data="{}"></meta_init>')).toBe('meta_init');
    expect(xmlItemTag('<content-block-web_search_tool_result id="x">')).toBe('content-block-web_search_tool_result');
    expect(isXmlItem('</content-block-thinking>')).toBe(true);
    expect(isXmlItem('<chart>x</chart>')).toBe(false);
    expect(isXmlItem('{"type":"message_start"}')).toBe(false);
  });
});

describe('unwrapCdata', () => {
  it('strips the fixed prefix and suffix, keeping an unprotected ]]> inside', () => {
    expect(unwrapCdata('<![CDATA[a ]]> b]]>', false)).toEqual({
      content: 'a ]]> b',
      problem: { kind: 'early-end', index: 2 },
    });
  });
  it('does not count upstream splits as early ends where the producer splits', () => {
    expect(unwrapCdata('<![CDATA[a ]]]]><![CDATA[> b]]>', true).problem).toBeNull();
    expect(unwrapCdata('<![CDATA[a ]]]]><![CDATA[> b]]>', false).problem).toEqual({ kind: 'early-end', index: 4 });
  });
  it('reports an unterminated section and a body that is not CDATA', () => {
    expect(unwrapCdata('<![CDATA[{', false)).toEqual({ content: '{', problem: { kind: 'unterminated' } });
    expect(unwrapCdata('<![CDATA[]]', false)).toEqual({ content: ']]', problem: { kind: 'unterminated' } });
    expect(unwrapCdata('plain', false)).toEqual({ content: 'plain', problem: { kind: 'not-cdata' } });
    expect(unwrapCdata('', false)).toEqual({ content: '', problem: null });
  });
});

describe('readCitations', () => {
  it('ends each citation at the ]]></citation> that precedes the next citation, so ]]> in cited text survives', () => {
    const body =
      '<citation type="a"><![CDATA[x ]]></citation> y]]></citation><citation type="b"><![CDATA[z]]></citation>';
    const list = readCitations(body);
    expect(list.error).toBeNull();
    expect(list.citations.map((c) => c.citedText)).toEqual(['x ]]></citation> y', 'z']);
    expect(list.citations[0]?.problem).toEqual({ kind: 'early-end', index: 2 });
  });
  it('stops at content that is not a citation', () => {
    const body = '<citation type="a"><![CDATA[x]]></citation>junk';
    const list = readCitations(body);
    expect(list.citations.map((c) => c.citedText)).toEqual(['x']);
    expect(list.error?.index).toBe(body.indexOf('junk'));
  });
  it('converts fields as the JSON formatter emits them', () => {
    expect(
      citationExtras([
        { name: 'type', value: 'page_location' },
        { name: 'document_index', value: '1' },
        { name: 'document_title', value: '' },
        { name: 'start_page_number', value: '2' },
        { name: 'title', value: '2024' },
        { name: '__proto__', value: 'x' },
      ]),
    ).toEqual({
      citation_type: 'page_location',
      document_index: 1,
      start_page_number: 2,
      title: '2024',
      ['__proto__']: 'x',
    });
    expect(
      citationExtras([
        { name: 'type', value: 'search_result_location' },
        { name: 'document_index', value: 'None' },
      ]),
    ).toEqual({ citation_type: 'search_result_location' });
  });
});

describe('readToolResultBody', () => {
  it('reads the multimodal form; the first ]]></text> ends the protected text', () => {
    const body =
      '<text><![CDATA[x]]]]><![CDATA[>]]]></text><image src="/i/1" media_type="image/png" /><image src="/i/2" media_type="image/gif"></image>';
    const read = readToolResultBody(body);
    expect(read).toMatchObject({ multimodal: true, text: 'x]]]]><![CDATA[>]', problem: null, error: null });
    expect(read.images.map((a) => a[0]?.raw)).toEqual(['/i/1', '/i/2']);
  });
  it('reports markup other than images', () => {
    const body = '<text><![CDATA[x]]></text><video />';
    expect(readToolResultBody(body).error?.index).toBe(body.indexOf('<video'));
  });
});

describe('findEmbeddedTags', () => {
  it('gives complete chart and table tags with decoded attributes and verbatim bodies', () => {
    expect(
      findEmbeddedTags('see <chart type="bar" title="A &amp; B">{"v":[1]}</chart> and <table/> and <chart>cut'),
    ).toEqual([
      { tag: 'chart', attrs: { type: 'bar', title: 'A & B' }, body: '{"v":[1]}' },
      { tag: 'table', attrs: {}, body: '' },
    ]);
  });
  it('ignores other tags and split ones', () => {
    expect(findEmbeddedTags('<b>x</b> <char')).toEqual([]);
  });
});
