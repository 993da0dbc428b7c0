import { decodeXML } from 'entities';

/**
 * The JUnit report `stream-inspector check --junit` writes (src-main/cli/check/report.ts): one
 * testsuite per recording it checked, named by the path as given, with the recording's
 * absolute path in a `recording` property. It is about recordings, not a stream: what opens
 * it again opens the recordings it names (docs/check.md).
 */

const CHECK_REPORT = /^\s*<\?xml[^>]*\?>\s*<testsuites name="stream-inspector check"/;
const SUITE_START = '<testsuite ';
const SUITE_NAME = '<testsuite name="';
const RECORDING_VALUE = '<property name="recording" value="';
const CASE_START = '<testcase ';
const FAILURE_START = '<failure ';
const SLASH = 0x2f;
const WHITE_SPACE = /\s/;
const NAMED_AT_MOST = 5;

/** What such a file is, in messages. */
export const CHECK_REPORT_WHAT = 'a JUnit report of stream-inspector check';

/** The property that gives each suite's recording as an absolute path. */
export const RECORDING_PROPERTY_NAME = 'recording';

export function isCheckReport(text: string): boolean {
  return CHECK_REPORT.test(text);
}

/** One recording a report names: as `check` was given it, and its absolute path when the report says it. */
export interface ReportedRecording {
  name: string;
  path?: string;
  /** The assertions that failed on it, in the report's order (none: it passed). */
  failed: FailedCheck[];
}

/** An assertion `check` found false: the expression, and why (`status is truncated: …`). */
export interface FailedCheck {
  expect: string;
  detail: string;
}

/**
 * The text of the quoted value that `prefix` (ending in its opening quote) begins in
 * [from, to), and where it ends; null when there is none. Found by plain searches, never a
 * regular expression that could scan the rest of a hostile report once for each candidate.
 */
function quoted(text: string, prefix: string, from: number, to: number): { value: string; end: number } | null {
  // Searched in the range alone: a search of the whole text would reach past it each time.
  const range = text.slice(from, to);
  const start = range.indexOf(prefix);
  if (start < 0) return null;
  const close = range.indexOf('"', start + prefix.length);
  if (close < 0) return null;
  return { value: decodeXML(range.slice(start + prefix.length, close)), end: from + close + 1 };
}

/** The testcases of `suite` (one suite's text) that failed, each with its failure's message. */
function failedCases(suite: string): FailedCheck[] {
  const failed: FailedCheck[] = [];
  // Each search starts past the last tag read: no character is searched twice.
  for (let at = suite.indexOf(CASE_START); at >= 0;) {
    const tagEnd = suite.indexOf('>', at);
    if (tagEnd < 0) break;
    let next = tagEnd;
    // <testcase …/> passed; one with a body failed when its body begins with a failure.
    if (suite.charCodeAt(tagEnd - 1) !== SLASH) {
      let body = tagEnd + 1;
      while (body < suite.length && WHITE_SPACE.test(suite.charAt(body))) body++;
      const failureEnd = suite.startsWith(FAILURE_START, body) ? suite.indexOf('>', body) : -1;
      if (failureEnd >= 0) {
        failed.push({
          expect: quoted(suite, ' name="', at, tagEnd)?.value ?? '',
          detail: quoted(suite, ' message="', body, failureEnd)?.value ?? '',
        });
        next = failureEnd;
      }
    }
    at = suite.indexOf(CASE_START, next);
  }
  return failed;
}

/**
 * The recordings a report names, in its order, each once (with the failures of every suite
 * that names it). Each suite is read up to the next one's start, with searches that each
 * look at a byte once, so a damaged or hostile report is still read in one pass.
 */
export function reportedRecordings(text: string): ReportedRecording[] {
  const out = new Map<string, ReportedRecording>();
  for (let at = text.indexOf(SUITE_START); at >= 0;) {
    const next = text.indexOf(SUITE_START, at + SUITE_START.length);
    // Each suite is searched on its own text: a search of the whole report would run past it.
    const suite = text.slice(at, next < 0 ? text.length : next);
    at = next;
    const named = suite.startsWith(SUITE_NAME) ? quoted(suite, SUITE_NAME, 0, suite.length) : null;
    if (!named) continue;
    const path = quoted(suite, RECORDING_VALUE, named.end, suite.length)?.value;
    const key = path ?? named.value;
    let recording = out.get(key);
    if (!recording) {
      recording = path !== undefined ? { name: named.value, path, failed: [] } : { name: named.value, failed: [] };
      out.set(key, recording);
    }
    for (const failure of failedCases(suite)) recording.failed.push(failure);
  }
  return [...out.values()];
}

/**
 * What to say of a report opened as a stream: what it is, and the recordings to open instead
 * (quoted: they are the file's text), those whose checks failed, as opening it by path
 * chooses them (`recordings`: the whole report's, reportedRecordings).
 */
export function checkReportMessage(recordings: readonly ReportedRecording[]): string {
  const failing = recordings.filter((recording) => recording.failed.length > 0);
  const names = (failing.length > 0 ? failing : recordings).map((recording) =>
    JSON.stringify(recording.path ?? recording.name),
  );
  const shown = names.slice(0, NAMED_AT_MOST);
  const more = names.length > NAMED_AT_MOST ? ` and ${names.length - NAMED_AT_MOST} more` : '';
  const which = failing.length > 0 ? 'whose checks failed' : 'it checked';
  return `${CHECK_REPORT_WHAT}: it holds the results of assertions about recordings, not a stream; ${
    shown.length > 0 ? `open the recordings ${which}: ${shown.join(', ')}${more}` : 'it names no recording'
  }`;
}
