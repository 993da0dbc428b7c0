import { describe, expect, test } from 'vitest';
import { envelopeReader, parseAssertion, printExpression } from '../../src-shared/filter';
import { checkAssertion } from '../../src-shared/filter/assertions';
import { checkRecording, readsOf, type CheckedRecording, type ParsedAssertion } from './check/run';
import { decodeFile } from './decode-file';
import { envelopeJson, subjectsOf } from './filter-option';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { buildReport, decodedAsLines } from './report';
import { memoryIo } from './test-io';

/**
 * `check` streams a file and gives its assertions only the envelopes they read (readsOf): it
 * decides what the assertions decide on every envelope of the whole decode, on every stream
 * the project ships.
 */

const assertion = (expect: string): ParsedAssertion => ({ name: expect, expect, tree: parseAssertion(expect) });

describe('readsOf', () => {
  test.each([
    ['status == "done"', [], false],
    ['status in ["done", "paused"] && !(status == "error")', [], false],
    ['some type == "text"', ['type == "text"'], false],
    ['count(type == "text") > 0 || (none final)', ['final', 'type == "text"'], false],
    ['before(type == "thinking", type == "text")', ['type == "text"', 'type == "thinking"'], false],
    ['first(final).time < 2s && last(seq >= 0).type == "text"', ['final', 'seq >= 0'], false],
    ['status == "done" && (every agent: some final)', ['final'], true],
  ])('%s reads %j (agents: %s)', (text, filters, agents) => {
    const reads = readsOf(parseAssertion(text));
    expect(reads.filters.map(printExpression).sort()).toEqual(filters);
    expect(reads.agents).toBe(agents);
  });
});

/** Assertions of every kind, on the status, the blocks, the findings, the time and each agent. */
const ASSERTIONS = [
  'status == "done"',
  'some block.status == "complete" && final',
  'none finding.severity == "error"',
  'count(type == "text") >= 3',
  'first(type == "text").time < 2s',
  'last(final).block.kind == "text"',
  'before(type == "thinking", type == "text")',
  'every agent: some final',
  'every agent: count(type == "text") >= 1 && (none finding.severity == "warning")',
].map(assertion);

/** Alone (no other filter picks envelopes of every agent): an agent none of these picks still counts, in spawn order. */
const EVERY_AGENT = ['every agent: count(type == "tool_call") >= 1', 'every agent: none type == "thinking"'].map(
  assertion,
);

/** A result's envelope as the report prints it (a streamed block has given up its content). */
const shown = (results: CheckedRecording['results']) =>
  results.map((r) => ({ ...r, envelope: r.envelope && envelopeJson(r.envelope) }));

test.each(CORPUS_FILES)('%s: assertions checked streamed decide as on the whole decode', async (name) => {
  const io = { ...memoryIo(), cwd: CORPUS_ROOT };
  const decoded = await decodeFile(name, 'auto', io);
  const { status } = buildReport(decoded);
  const input = { status, subjects: subjectsOf(decoded) };
  for (const assertions of [ASSERTIONS, EVERY_AGENT]) {
    const whole = assertions.map((a) => ({
      name: a.name,
      expect: a.expect,
      ...checkAssertion(a.tree, input, envelopeReader()),
    }));
    const streamed = await checkRecording(name, assertions, 'auto', io);
    expect(streamed).toMatchObject({
      kind: decoded.kind,
      status: status.kind,
      legs: decoded.formats.length,
      decodedAs: decodedAsLines(decoded),
      envelopes: decoded.envelopes.length,
    });
    expect(shown(streamed.results)).toEqual(shown(whole));
  }
});
