import { describe, expect, it } from 'vitest';
import { recordingItem } from '../../testing/xml-items';
import { extraAttributes, idAndName, parseAttributeJson, readElement, requireAttributes } from './element';

const rules = (diagnostics: readonly { rule: string }[]): string[] => diagnostics.map((d) => d.rule);

describe('readElement', () => {
  it('reads attributes decoded and the body between the start and close tags', () => {
    const data = '<content-block-error code="a&amp;b"><![CDATA[x]]></content-block-error>';
    const { item, diagnostics } = recordingItem(data);
    const element = readElement(item, data, 'content-block-error');
    expect(element).toEqual({
      tag: 'content-block-error',
      attributes: new Map([['code', 'a&b']]),
      body: '<![CDATA[x]]>',
      unclosed: false,
    });
    expect(diagnostics).toEqual([]);
  });

  it('reads up to a wrong vocabulary close tag and reports it at the item', () => {
    const data = '<content-block-error><![CDATA[x]]></content-block-meta_files>';
    const { item, diagnostics } = recordingItem(data, 7);
    expect(readElement(item, data, 'content-block-error')?.body).toBe('<![CDATA[x]]>');
    expect(rules(diagnostics)).toEqual(['xml.mismatched']);
    expect(diagnostics[0]?.at).toEqual({ frame: 7, byteStart: 7000, byteEnd: 7000 + data.length + 8 });
  });

  it('marks an element with no close tag unclosed, its body running to the end of the item', () => {
    const data = '<content-block-error><![CDATA[x]]> and then';
    const { item } = recordingItem(data);
    expect(readElement(item, data, 'content-block-error')).toMatchObject({
      body: '<![CDATA[x]]> and then',
      unclosed: true,
    });
  });

  it('keeps an unreadable start tag undecoded, with the raw data', () => {
    const data = '<content-block-error code=>';
    const { item, envelopes, diagnostics } = recordingItem(data);
    expect(readElement(item, data, 'content-block-error')).toBeNull();
    expect(rules(diagnostics)).toEqual(['xml.malformed']);
    expect(envelopes).toHaveLength(1);
    expect(envelopes[0]?.agent).toBe('root');
  });

  it('uses the first of a repeated attribute and reports bad character references', () => {
    const data = '<meta_final data="1" data="2" note="&bogus;"/>';
    const { item, diagnostics } = recordingItem(data);
    expect(readElement(item, data, 'meta_final')?.attributes).toEqual(
      new Map([
        ['data', '1'],
        ['note', '&bogus;'],
      ]),
    );
    expect(rules(diagnostics).sort()).toEqual(['xml.bad-entity', 'xml.malformed']);
  });
});

describe('attribute helpers', () => {
  const data = '<content-block-tool_call name="f" extra="e" arguments="{&quot;a&quot;:1}" id="t1" />';
  const element = (): ReturnType<typeof readElement> =>
    readElement(recordingItem(data).item, data, 'content-block-tool_call');

  it('orders id and name first, as the JSON dialect does, then the rest without the skipped ones', () => {
    const extras = idAndName(element()!, 'f', ['arguments']);
    expect(Object.keys(extras)).toEqual(['id', 'name', 'extra']);
    expect(extraAttributes(element()!, ['arguments', 'id'])).toEqual({ name: 'f', extra: 'e' });
  });

  it('parses a JSON attribute, or reports xml.attr-json and gives undefined', () => {
    const { item, diagnostics } = recordingItem(data);
    expect(parseAttributeJson(item, element()!, 'arguments')).toEqual({ a: 1 });
    expect(parseAttributeJson(item, element()!, 'extra')).toBeUndefined();
    expect(parseAttributeJson(item, element()!, 'absent')).toBeUndefined();
    expect(rules(diagnostics)).toEqual(['xml.attr-json']);
  });

  it('reports the missing required attributes in one finding', () => {
    const { item, diagnostics } = recordingItem(data);
    requireAttributes(item, element()!, ['id', 'name', 'src', 'media_type']);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'Event 3: <content-block-tool_call> lacks the attributes src, media_type.',
    ]);
  });
});
