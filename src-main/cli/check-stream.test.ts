import { describe, expect, test } from 'vitest';
import { parseAssertion, printExpression } from '../../src-shared/filter';
import { checkRecording, filtersOf, type CheckedRecording, type ParsedAssertion } from './check/run';
import { envelopeJson } from './filter-option';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { memoryIo } from './test-io';

/**
 * `check` streams a file, given only the envelopes its assertions' filters select
 * (stream-subjects.ts), unless an assertion reads every envelope (`every agent:`), when it
 * decodes the file whole: both decide the same on every stream the project ships.
 */

const assertion = (expect: string): ParsedAssertion => ({ name: expect, expect, tree: parseAssertion(expect) });

describe('filtersOf', () => {
  test.each([
    ['status == "done"', []],
    ['status in ["done", "paused"] && !(status == "error")', []],
    ['some type == "text"', ['type == "text"']],
    ['count(type == "text") > 0 || (none final)', ['final', 'type == "text"']],
    ['before(type == "thinking", type == "text")', ['type == "text"', 'type == "thinking"']],
    ['first(final).time < 2s && last(seq >= 0).type == "text"', ['final', 'seq >= 0']],
  ])('%s picks envelopes with %j', (text, filters) =>
    expect(filtersOf(parseAssertion(text))?.map(printExpression).sort()).toEqual(filters),
  );
  test('every agent: reads every envelope', () =>
    expect(filtersOf(parseAssertion('status == "done" && (every agent: some final)'))).toBeNull());
});

/** Assertions of every kind that streams, on the status, the blocks, the findings and the time. */
const STREAMED = [
  'status == "done"',
  'some block.status == "complete" && final',
  'none finding.severity == "error"',
  'count(type == "text") >= 3',
  'first(type == "text").time < 2s',
  'last(final).block.kind == "text"',
  'before(type == "thinking", type == "text")',
].map(assertion);

test.each(CORPUS_FILES)('%s: assertions checked streamed are the whole decode’s', async (name) => {
  const io = { ...memoryIo(), cwd: CORPUS_ROOT };
  const streamed = await checkRecording(name, STREAMED, 'auto', io);
  // `every agent:` makes the file decoded whole.
  const whole = await checkRecording(name, [...STREAMED, assertion('every agent: some final')], 'auto', io);
  expect({ ...streamed, results: [] }).toEqual({ ...whole, results: [] });
  // A result's envelope as the report prints it (a streamed block has given up its content).
  const shown = (results: CheckedRecording['results']) =>
    results.map((r) => ({ ...r, envelope: r.envelope && envelopeJson(r.envelope) }));
  expect(shown(streamed.results)).toEqual(shown(whole.results.slice(0, STREAMED.length)));
});
