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
      { name: 'runs/a & b.recording', path: '/abs/runs/a & b.recording' },
      { name: 'runs/c.recording' },
    ]);
  });

  it('reads a damaged report whose suites never close in one pass, and quotes what it names', () => {
    const suites = Array.from({ length: 20_000 }, (_, i) => `<testsuite name="r${i}.recording" tests="1">\n`).join('');
    const names = reportedRecordings(`${HEAD}${suites}`);
    expect(names).toHaveLength(20_000);
    expect(names[19_999]).toEqual({ name: 'r19999.recording' });
    expect(checkReportMessage(`${HEAD}<testsuite name="a\u001b[2J.recording" tests="1">`)).toMatch(
      /open the recordings it checked: "a\\u001b\[2J\.recording"$/,
    );
    expect(checkReportMessage(`${HEAD}${suites}`)).toMatch(/"r4\.recording" and 19995 more$/);
  });
});
