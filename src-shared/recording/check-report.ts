import { decodeXML } from 'entities';

/**
 * The JUnit report `stream-inspector check --junit` writes (src-main/cli/check/report.ts): one
 * testsuite per recording it checked, named by the path as given, with the recording's
 * absolute path in a `recording` property. It is about recordings, not a stream: what opens
 * it again opens the recordings it names (docs/check.md).
 */

const CHECK_REPORT = /^\s*<\?xml[^>]*\?>\s*<testsuites name="stream-inspector check"/;
const SUITE_START = '<testsuite ';
const SUITE_NAME = /^<testsuite name="([^"]*)"/;
const RECORDING_PROPERTY = /<property name="recording" value="([^"]*)"\s*\/>/;
const NAMED_AT_MOST = 5;

/** The property that gives each suite's recording as an absolute path. */
export const RECORDING_PROPERTY_NAME = 'recording';

export function isCheckReport(text: string): boolean {
  return CHECK_REPORT.test(text);
}

/** One recording a report names: as `check` was given it, and its absolute path when the report says it. */
export interface ReportedRecording {
  name: string;
  path?: string;
}

/**
 * The recordings a report names, in its order, each once. Each suite is read up to the next
 * one's start, so a report whose suites are never closed is still read in one pass.
 */
export function reportedRecordings(text: string): ReportedRecording[] {
  const out = new Map<string, ReportedRecording>();
  for (let at = text.indexOf(SUITE_START); at >= 0;) {
    const next = text.indexOf(SUITE_START, at + SUITE_START.length);
    const suite = text.slice(at, next < 0 ? text.length : next);
    at = next;
    const named = SUITE_NAME.exec(suite);
    if (!named) continue;
    const name = decodeXML(named[1] ?? '');
    const property = RECORDING_PROPERTY.exec(suite);
    const path = property ? decodeXML(property[1] ?? '') : undefined;
    const key = path ?? name;
    if (!out.has(key)) out.set(key, path !== undefined ? { name, path } : { name });
  }
  return [...out.values()];
}

/** What to say of a report opened as a stream: what it is, and the recordings to open instead (quoted: they are the file's text). */
export function checkReportMessage(text: string): string {
  const names = reportedRecordings(text).map((recording) => JSON.stringify(recording.path ?? recording.name));
  const shown = names.slice(0, NAMED_AT_MOST);
  const more = names.length > NAMED_AT_MOST ? ` and ${names.length - NAMED_AT_MOST} more` : '';
  return `a JUnit report of stream-inspector check: it holds the results of assertions about recordings, not a stream; ${
    shown.length > 0 ? `open the recordings it checked: ${shown.join(', ')}${more}` : 'it names no recording'
  }`;
}
