import { describe, expect, it } from 'vitest';
import { recordingItem, type RecordingItem } from '../../testing/xml-items';
import { decodeCdataElement, decodeCitations, decodeServerToolResult, decodeToolResult } from './body-elements';
import { readElement, type Element } from './element';

/** The item started on `data` and its element, as the decoder reads it before a body decoder runs. */
function read(data: string, tag: string): RecordingItem & { element: Element } {
  const recording = recordingItem(data);
  const element = readElement(recording.item, data, tag);
  if (!element) throw new Error(`unreadable test item: ${data}`);
  return { ...recording, element };
}

const shapes = (recording: RecordingItem): unknown[] =>
  recording.envelopes.map(({ type, final, delta, extras }) => ({ type, final, delta, extras }));

describe('decodeToolResult', () => {
  const data =
    '<content-block-tool_result id="t1" name="ls"><![CDATA[a\\nb]]]]><![CDATA[>c]]></content-block-tool_result>';

  it('joins ]]> splits and undoes escaped newlines while the stream is escaped', () => {
    const run = read(data, 'content-block-tool_result');
    decodeToolResult(run.item, run.element, true);
    expect(shapes(run)).toEqual([
      { type: 'tool_result', final: true, delta: 'a\nb]]>c', extras: { id: 't1', name: 'ls' } },
    ]);
  });

  it('keeps \\n as written in a stream that predates the escaping', () => {
    const run = read(data, 'content-block-tool_result');
    decodeToolResult(run.item, run.element, false);
    expect(run.envelopes[0]?.delta).toBe('a\\nb]]>c');
  });

  it('sends the multimodal form as text, one envelope per image, and an empty final marker', () => {
    const multimodal =
      '<content-block-tool_result id="t1" name="shot"><text><![CDATA[see]]></text><image src="data:x" media_type="image/png" /></content-block-tool_result>';
    const run = read(multimodal, 'content-block-tool_result');
    decodeToolResult(run.item, run.element, true);
    expect(shapes(run)).toEqual([
      { type: 'tool_result', final: false, delta: 'see', extras: { id: 't1', name: 'shot' } },
      {
        type: 'tool_result_image',
        final: false,
        delta: '',
        extras: { id: 't1', name: 'shot', src: 'data:x', media_type: 'image/png' },
      },
      { type: 'tool_result', final: true, delta: '', extras: { id: 't1', name: 'shot' } },
    ]);
    expect(run.diagnostics).toEqual([]);
  });
});

describe('CDATA elements and server tool results', () => {
  it('a CDATA element carries its section as the delta and its attributes as extras', () => {
    const run = read('<content-block-error code="E1"><![CDATA[boom]]></content-block-error>', 'content-block-error');
    decodeCdataElement(run.item, run.element, 'error');
    expect(shapes(run)).toEqual([{ type: 'error', final: true, delta: 'boom', extras: { code: 'E1' } }]);
  });

  it('an unterminated section is reported once, not also as a missing close tag', () => {
    const run = read('<content-block-error><![CDATA[boom', 'content-block-error');
    decodeCdataElement(run.item, run.element, 'error');
    expect(run.diagnostics.map((d) => d.rule)).toEqual(['xml.broken-cdata']);
    expect(run.element.unclosed).toBe(false);
  });

  it('a server tool result takes the name it is given and requires an id', () => {
    const run = read(
      '<content-block-web_search_tool_result><![CDATA[[]]]></content-block-web_search_tool_result>',
      'content-block-web_search_tool_result',
    );
    decodeServerToolResult(run.item, run.element, 'web_search_tool_result');
    expect(shapes(run)).toEqual([
      { type: 'server_tool_result', final: true, delta: '[]', extras: { name: 'web_search_tool_result' } },
    ]);
    expect(run.diagnostics.map((d) => d.rule)).toEqual(['xml.malformed']);
  });
});

describe('decodeCitations', () => {
  it('one envelope per citation, the last final', () => {
    const run = read(
      '<citations><citation url="u1"><![CDATA[one]]></citation><citation url="u2"><![CDATA[two]]></citation></citations>',
      'citations',
    );
    decodeCitations(run.item, run.element);
    expect(run.envelopes.map((e) => [e.type, e.final, e.delta])).toEqual([
      ['citation', false, 'one'],
      ['citation', true, 'two'],
    ]);
  });

  it('a list with no citation is kept undecoded', () => {
    const run = read('<citations></citations>', 'citations');
    decodeCitations(run.item, run.element);
    expect(run.diagnostics.map((d) => d.rule)).toEqual(['xml.malformed']);
    expect(run.envelopes).toHaveLength(1);
    expect(run.envelopes[0]?.type).not.toBe('citation');
  });
});
