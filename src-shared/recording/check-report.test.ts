import { describe, expect, it } from 'vitest';
import { checkReportMessage, isCheckReport, reportedRecordings } from './check-report';

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stream-inspector check" tests="1" failures="0">\n';

describe('a JUnit report of check', () => {
  it('is told by its first lines, not by a testsuites element of another tool', () => {
    expect(isCheckReport(`${HEAD}</testsuites>\n`)).toBe(true);
    expect(isCheckReport('<?xml version="1.0"?>\n<testsuites name="vitest tests">')).toBe(false);
    expect(isCheckReport('<testsuites name="stream-inspector check">')).toBe(false);
  });

  it('names each recording once, by its property when it has one, with XML entities decoded', () => {
    const text = `${HEAD}  <testsuite name="runs/a &amp; b.recording" tests="1" failures="0">
    <properties><property name="recording" value="/abs/runs/a &amp; b.recording"/></properties>
    <testcase classname="x" name="y"/>
  </testsuite>
  <testsuite name="runs/c.recording" tests="1" failures="0">
  </testsuite>
  <testsuite name="runs/c.recording" tests="1" failures="0"/>
</testsuites>
`;
    expect(reportedRecordings(text)).toEqual([
      { name: 'runs/a & b.recording', path: '/abs/runs/a & b.recording', failed: [] },
      { name: 'runs/c.recording', failed: [] },
    ]);
  });

  it('reads a damaged report whose suites never close in one pass, and quotes what it names', () => {
    // Sized so that a search of the rest of the report per suite would outlast the test's timeout.
    const suites = Array.from({ length: 60_000 }, (_, i) => `<testsuite name="r${i}.recording" tests="1">\n`).join('');
    const names = reportedRecordings(`${HEAD}${suites}`);
    expect(names).toHaveLength(60_000);
    expect(names[59_999]).toEqual({ name: 'r59999.recording', failed: [] });
    expect(checkReportMessage(reportedRecordings(`${HEAD}<testsuite name="a\u001b[2J.recording" tests="1">`))).toMatch(
      /open the recordings it checked: "a\\u001b\[2J\.recording"$/,
    );
    expect(checkReportMessage(reportedRecordings(`${HEAD}${suites}`))).toMatch(/"r4\.recording" and 59995 more$/);
  });

  it('reads which assertions failed on each recording, and why, by the testcase name, not its classname', () => {
    const text = `${HEAD}  <testsuite name="a.sse" tests="2" failures="1">
    <properties><property name="recording" value="/abs/a.sse"/></properties>
    <testcase classname="a.sse" name="status == &quot;done&quot;">
      <failure type="assertion" message="status is truncated: cut &amp; gone">status == &quot;done&quot;</failure>
    </testcase>
    <testcase classname="a.sse" name="count(type == &quot;text&quot;) &gt; 0"/>
  </testsuite>
  <testsuite name="b.sse" tests="1" failures="0">
    <testcase classname="b.sse" name="status == &quot;done&quot;"/>
  </testsuite>
</testsuites>
`;
    // Opened as a stream, it names the ones to look at, as opening it by path would choose them.
    expect(checkReportMessage(reportedRecordings(text))).toMatch(
      /; open the recordings whose checks failed: "\/abs\/a\.sse"$/,
    );
    expect(reportedRecordings(text)).toEqual([
      {
        name: 'a.sse',
        path: '/abs/a.sse',
        failed: [{ expect: 'status == "done"', detail: 'status is truncated: cut & gone' }],
      },
      { name: 'b.sse', failed: [] },
    ]);
  });

  it.each([
    ['testcases whose tags never end', '<testcase name="x" '.repeat(200_000)],
    ['a tag of names whose quotes never close', `<testcase${' name="'.repeat(400_000)}>`],
    ['failures whose tags never end', '<testcase name="x"><failure message="'.repeat(100_000)],
    ['properties whose values never close', '<property name="recording" value="'.repeat(100_000)],
  ])('reads a hostile report of %s in one pass', (_name, body) => {
    const names = reportedRecordings(`${HEAD}<testsuite name="s.sse">${body}`);
    expect(names.map((recording) => recording.name)).toEqual(['s.sse']);
  });
});
