import { describe, expect, it } from 'vitest';
import { createScannerPool } from './markers';
import { ParamValue } from './param-value';

/** A value reader that records what it shows as raw content. */
function reader(): { param: ParamValue; shown: string[] } {
  const shown: string[] = [];
  return { param: new ParamValue(createScannerPool(), (raw) => shown.push(raw)), shown };
}

/** Feed `pieces` one after another until the close tag; what is left after it. */
function readAll(param: ParamValue, pieces: readonly string[]): { closed: boolean; rest: string } {
  for (const piece of pieces) {
    const { next, closed } = param.read(piece, 0);
    if (closed) return { closed, rest: piece.slice(next) };
  }
  return { closed: false, rest: '' };
}

describe('ParamValue', () => {
  it('decodes entities, keeps CDATA verbatim, trims, and shows the text as written', () => {
    const { param, shown } = reader();
    param.begin('query', 'query');
    const text = ' a &amp; <![CDATA[<b> &amp;]]> c </query>tail';
    expect(readAll(param, [text])).toEqual({ closed: true, rest: 'tail' });
    expect(param.value()).toBe('a & <b> &amp; c');
    expect(shown.join('')).toBe(text.slice(0, -'tail'.length));
  });

  it('reads the same at every split of the text, including inside an entity and a marker', () => {
    const text = 'x &lt; y<![CDATA[]]]]></arg>';
    for (let cut = 0; cut <= text.length; cut++) {
      const { param, shown } = reader();
      param.begin('q', 'arg');
      expect(readAll(param, [text.slice(0, cut), text.slice(cut)]).closed).toBe(true);
      expect(param.value()).toBe('x < y]]');
      expect(shown.join('')).toBe(text);
    }
  });

  it('holds back the start of a marker until the next character decides', () => {
    const { param, shown } = reader();
    param.begin('q', 'q');
    param.read('abc</q', 0);
    expect(param.held).toBe('</q');
    expect(shown.join('')).toBe('abc');
  });

  it('names the parameter as the text wrote it', () => {
    const { param } = reader();
    param.begin('path', 'arg');
    expect(param.describe()).toBe('<arg name="path">');
    param.begin('path', 'path');
    expect(param.describe()).toBe('<path>');
  });

  it('at the end of the text, takes the value and the parameters written after it', () => {
    const { param, shown } = reader();
    param.begin('query', 'query');
    param.read('login &amp; out<path>src</', 0);
    expect(param.endOfText({ toolTag: 'search', argForm: false })).toEqual([
      { name: 'query', raw: 'login &amp; out', value: 'login & out' },
      { name: 'path', raw: 'src</', value: 'src</' },
    ]);
    expect(shown.join('')).toBe('login &amp; out<path>src</');
  });

  it('at the end of the text inside CDATA, the section so far is the value, verbatim', () => {
    const { param } = reader();
    param.begin('content', 'arg');
    param.read('a<![CDATA[<p>&amp;', 0);
    expect(param.endOfText({ toolTag: 'tool', argForm: true })).toEqual([
      { name: 'content', raw: '', value: 'a<p>&amp;' },
    ]);
  });
});
