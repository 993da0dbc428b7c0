import { describe, expect, it } from 'vitest';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { createImportDiagnostics } from './diagnostics';
import { createJsonArraySplitter, type JsonArraySplitterOptions, type JsonElement } from './json-array-splitter';

function split(chunks: Uint8Array[], options: JsonArraySplitterOptions = {}) {
  const elements: JsonElement[] = [];
  const diagnostics = createImportDiagnostics();
  const splitter = createJsonArraySplitter(
    { onElement: (e) => elements.push(e), onDiagnostic: diagnostics.report },
    options,
  );
  for (const chunk of chunks) splitter.push(chunk);
  const summary = splitter.end();
  return { elements, summary, diagnostics: diagnostics.list };
}

const PRETTY = `[
  {
    "type": "text",
    "agent": "a",
    "final": false,
    "delta": "x [1, 2] {\\"y\\": \\"]\\"} é😀 \\\\"
  },
  "[DONE]" ,
  -12.5e3,
  true,
  [ {"type": "ping"} ],
  {}
]
`;

describe('JSON array splitter', () => {
  const bytes = encodeUtf8(PRETTY);

  it.each(chunkings(bytes).map((c) => [c.name, c.chunks] as const))(
    'splits a pretty-printed array the same way when chunked %s',
    (_name, chunks) => {
      const { elements, summary, diagnostics } = split(chunks);
      expect(diagnostics).toEqual([]);
      expect(summary).toEqual({ complete: true, found: true, elements: 6 });
      expect(elements.map((e) => e.text)).toEqual([
        '{"type":"text","agent":"a","final":false,"delta":"x [1, 2] {\\"y\\": \\"]\\"} é😀 \\\\"}',
        '"[DONE]"',
        '-12.5e3',
        'true',
        '[{"type":"ping"}]',
        '{}',
      ]);
      // Each element's text is valid JSON equal to the source's value.
      const values = JSON.parse(PRETTY) as unknown[];
      elements.forEach((e, i) => expect(JSON.parse(e.text)).toEqual(values[i]));
      // Byte spans point at the element in the file.
      expect(new TextDecoder().decode(bytes.subarray(elements[1]?.byteStart, elements[1]?.byteEnd))).toBe('"[DONE]"');
      expect(new TextDecoder().decode(bytes.subarray(elements[2]?.byteStart, elements[2]?.byteEnd))).toBe('-12.5e3');
    },
  );

  it('finds the array at a path and ignores everything else', () => {
    const text =
      '{"log": {"version": "1.2", "pages": [{"id": "entries"}], "entries": [{"a": [1]}, {"b": "]"}], "after": [9]}}';
    const { elements, summary } = split([encodeUtf8(text)], { path: ['log', 'entries'] });
    expect(elements.map((e) => e.text)).toEqual(['{"a":[1]}', '{"b":"]"}']);
    expect(summary).toMatchObject({ complete: true, found: true });
  });

  it('matches a key with escapes on the path', () => {
    const { elements } = split([encodeUtf8('{"l\\u006fg": {"entries": [1]}}')], { path: ['log', 'entries'] });
    expect(elements.map((e) => e.text)).toEqual(['1']);
  });

  it('reports a truncated array, keeping the complete elements', () => {
    const text = '[{"a":1},{"b":2},{"c":';
    const { elements, summary, diagnostics } = split([encodeUtf8(text)], { itemName: 'envelope' });
    expect(elements).toHaveLength(2);
    expect(summary.complete).toBe(false);
    expect(diagnostics).toMatchObject([{ rule: 'import.truncated', at: { fileOffset: 17 } }]);
    expect(diagnostics[0]?.message).toContain('inside envelope 2');
  });

  it('reports trailing data after the array', () => {
    const { elements, diagnostics } = split([encodeUtf8('[1]\n[2]')]);
    expect(elements).toHaveLength(1);
    expect(diagnostics).toMatchObject([{ rule: 'import.truncated', at: { fileOffset: 4 } }]);
  });

  it('does not report a clean array', () => {
    expect(split([encodeUtf8('[1, 2]\n')]).diagnostics).toEqual([]);
  });

  it.each([
    ['an object at top level', '{"a": 1}', 'Expected a JSON array'],
    ['a mismatched bracket', '[{"a": 1]]', 'does not close'],
  ])('stops at %s', (_name, text, message) => {
    const { diagnostics } = split([encodeUtf8(text)]);
    expect(diagnostics[0]?.message).toContain(message);
  });

  it('skips an element over the size limit and reads on', () => {
    const { elements, diagnostics } = split([encodeUtf8(`["${'x'.repeat(100)}", 2]`)], { maxElementBytes: 50 });
    expect(elements.map((e) => e.text)).toEqual(['2']);
    expect(elements[0]?.index).toBe(1);
    expect(diagnostics).toMatchObject([{ rule: 'import.skipped-item' }]);
  });
});
