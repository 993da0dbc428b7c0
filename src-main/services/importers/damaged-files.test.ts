import { truncate } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CheckReportError, openSource } from './index';
import { dataLines, decodeSource, expectImportError, readLegs, tempFiles } from './testing';

const { file } = tempFiles();

describe('corrupt and unknown files', () => {
  it.each([
    [
      'binary garbage',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]),
      /not a recording, SSE capture, NDJSON\/JSON of envelopes or Anthropic events, NDJSON of stream events, a streamed JSON array of API responses, or HAR: first bytes were binary data$/,
    ],
    ['an empty file', '', /the file is empty/],
    ['an HTML login page', '<!DOCTYPE html>\n<html><body>Sign in</body></html>', /first bytes were an HTML page$/],
    [
      'a JSON array of numbers',
      '[1, 2, 3]',
      /a JSON array, but its items are not an envelope .* or an Anthropic event/,
    ],
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

  it('reads a check report whole, not only the head that told what it is: a failure past it is named', async () => {
    const passed = Array.from(
      { length: 2_000 },
      (_, i) =>
        `  <testsuite name="ok-${i}.sse" tests="1" failures="0">\n    <testcase classname="ok-${i}.sse" name="status == &quot;done&quot;"/>\n  </testsuite>\n`,
    ).join('');
    const late = `  <testsuite name="late.sse" tests="1" failures="1">\n    <testcase classname="late.sse" name="status == &quot;done&quot;">\n      <failure type="assertion" message="status is truncated">x</failure>\n    </testcase>\n  </testsuite>\n`;
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="2001" failures="1">\n${passed}${late}</testsuites>\n`;
    expect(text.length).toBeGreaterThan(128 * 1024); // past the first look (64 KiB)
    const error = await openSource(await file('big-report.xml', text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckReportError);
    const report = error as CheckReportError;
    expect(report.recordings).toHaveLength(2_001);
    expect(report.recordings.filter((r) => r.failed.length > 0).map((r) => r.name)).toEqual(['late.sse']);
    expect(report.message).toMatch(/; open the recordings whose checks failed: "late\.sse"$/);
  });

  it('refuses a check report too large to read whole, saying so, before reading it', async () => {
    const path = await file(
      'huge-report.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="1" failures="0">\n',
    );
    await truncate(path, 64 * 1024 * 1024 + 1); // the rest a hole: the file is that large, the disk holds little
    await expectImportError(path, /: a JUnit report of stream-inspector check larger than 67108864 bytes, not read$/);
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
