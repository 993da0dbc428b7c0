import { describe, expect, test } from 'vitest';
import { parseAssertion } from '../../src-shared/filter';
import { checkRecording, readsStatusOnly, type ParsedAssertion } from './check/run';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { memoryIo } from './test-io';

/**
 * `check` streams a file when every assertion reads the end status alone (the file's facts
 * from reportFile), and decodes it whole when one reads envelopes: both say the same of every
 * stream the project ships.
 */

const assertion = (expect: string): ParsedAssertion => ({ name: expect, expect, tree: parseAssertion(expect) });

describe('readsStatusOnly', () => {
  test.each(['status == "done"', 'status in ["done", "paused"] && !(status == "error")', 'status != "truncated"'])(
    '%s reads the status alone',
    (text) => expect(readsStatusOnly(parseAssertion(text))).toBe(true),
  );
  test.each([
    'some type == "text"',
    'count(type == "text") > 0',
    'status == "done" && (none finding.severity == "error")',
    'every agent: some final',
  ])('%s reads envelopes', (text) => expect(readsStatusOnly(parseAssertion(text))).toBe(false));
});

test.each(CORPUS_FILES)('%s: a status checked streamed is the whole decode’s', async (name) => {
  const io = { ...memoryIo(), cwd: CORPUS_ROOT };
  const status = assertion('status == "done"');
  const streamed = await checkRecording(name, [status], 'auto', io);
  // An assertion on envelopes makes the file decoded whole.
  const whole = await checkRecording(name, [status, assertion('some final')], 'auto', io);
  expect({ ...streamed, results: [] }).toEqual({ ...whole, results: [] });
  expect(streamed.results).toEqual(whole.results.slice(0, 1));
});
