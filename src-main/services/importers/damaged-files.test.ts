import { describe, expect, it } from 'vitest';
import { openSource } from './index';
import { dataLines, decodeSource, expectImportError, readLegs, tempFiles } from './testing';

const { file } = tempFiles();

describe('corrupt and unknown files', () => {
  it.each([
    [
      'binary garbage',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]),
      /not a recording, SSE capture, NDJSON\/JSON of envelopes or Anthropic events, a streamed JSON array of API responses, or HAR: first bytes were binary data$/,
    ],
    ['an empty file', '', /the file is empty/],
    ['an HTML login page', '<!DOCTYPE html>\n<html><body>Sign in</body></html>', /first bytes were an HTML page$/],
    [
      'a JSON array of numbers',
      '[1, 2, 3]',
      /a JSON array, but its items are not an envelope .* or an Anthropic event/,
    ],
    ['NDJSON of unrelated objects', '{"id":1,"name":"x"}\n{"id":2}\n', /JSON lines, but the first is not an envelope/],
    ['a truncated first JSON line', '{"type":"text","agent":"a","fin', /its first line is not a JSON object/],
    [
      'a JUnit report of check',
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="2" failures="1">\n  <testsuite name="runs/tour.recording" tests="1" failures="0">\n  </testsuite>\n  <testsuite name="runs/a &amp; b\u001b[2J.recording" tests="1" failures="1">\n  </testsuite>\n</testsuites>\n',
      /: a JUnit report of stream-inspector check: it holds the results of assertions about recordings, not a stream; open the recordings it checked: "runs\/tour\.recording", "runs\/a & b\\u001b\[2J\.recording"$/,
    ],
    [
      "the Diff view's export",
      `{\n  "format": "agent-stream-inspector/diff",\n  "version": 1,\n  "rows": []\n}\n`,
      /^.*: a diff exported from the Diff view: it holds the comparison of two sessions, not a stream; open it in the Diff view \("Open exported diff…"\)$/,
    ],
  ])('rejects %s, naming what was expected', async (_name, content, message) => {
    await expectImportError(await file(`corrupt-${Math.random()}`, content), message);
  });

  it('refuses a file it cannot read, naming it first and saying why in plain words', async () => {
    const existing = await file('here.sse', 'data: {}\n\n');
    for (const [path, why] of [
      [`${existing}.gone`, 'no such file or directory'],
      [`${existing}/inside`, 'not a directory'],
    ] as const) {
      const error = await expectImportError(path, `${path}: ${why}`);
      expect(error.code).toBe('unreadable');
    }
  });

  it('NDJSON: skips a garbage line with its line number, passes a broken object on to the decoder, reports a cut last line', async () => {
    const lines = dataLines('json_stream.json.sse').slice(0, 5);
    const text = [
      lines[0],
      lines[1],
      '\u0001\u0002 garbage',
      lines[2],
      '{"type":"text","agent":',
      lines[3],
      lines[4]?.slice(0, 20),
    ].join('\n');
    const path = await file('mixed.ndjson', text);
    const source = await openSource(path);
    const decoded = await decodeSource(source);
    expect(source.diagnostics.map((d) => [d.rule, d.at.line])).toEqual([
      ['import.skipped-item', 3],
      ['import.truncated', 7],
    ]);
    expect(source.diagnostics[0]?.message).toContain('Line 3 (byte');
    expect(decoded.diagnostics.map((d) => d.rule)).toContain('json.invalid');
  });

  it('a JSON array: skips a number item, reports the truncation, keeps the items before it', async () => {
    const items = dataLines('json_stream.json.sse').slice(0, 4);
    const text = `[${items[0]}, 42, ${items[1]}, ${items[2]}, ${items[3]?.slice(0, 30)}`;
    const path = await file('cut.json', text);
    const source = await openSource(path);
    const [chunks = []] = await readLegs(source);
    expect(chunks).toHaveLength(3);
    expect(source.diagnostics.map((d) => d.rule)).toEqual(['import.skipped-item', 'import.truncated']);
    expect(source.diagnostics[0]?.message).toMatch(/^Array item 1 \(byte \d+\) is a number, not an event; skipped\.$/);
  });

  it('reports each finding once however often the chunks are read', async () => {
    const path = await file('twice.ndjson', `${dataLines('json_stream.json.sse')[0]}\n42\n`);
    const source = await openSource(path);
    await readLegs(source);
    await readLegs(source);
    expect(source.diagnostics).toHaveLength(1);
  });
});
