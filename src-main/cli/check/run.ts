import { envelopeReader, type EnvelopeSubject, type Expr } from '../../../src-shared/filter';
import { checkAssertion, type AssertionInput } from '../../../src-shared/filter/assertions';
import type { EndStatusKind } from '../../../src-shared/pipeline/end-status';
import type { FormatChoice } from '../../../src-shared/pipeline/types';
import { compileFilter } from '../../../src-shared/filter/evaluate';
import type { DecodeFileOptions } from '../decode-file';
import { reportFile } from '../stream-file';
import { decodedAsLines } from '../report';
import { factsReader, streamSubjects } from '../stream-subjects';
import { errorText, UsageError, type CliIo } from '../io';
import type { NamedAssertion } from './spec';

export interface ParsedAssertion extends NamedAssertion {
  readonly tree: Expr;
}

export interface CheckedAssertion {
  readonly name: string;
  readonly expect: string;
  readonly pass: boolean;
  readonly detail: string;
  readonly envelope?: EnvelopeSubject;
}

export interface CheckedRecording {
  readonly file: string;
  readonly kind?: string;
  readonly status?: EndStatusKind;
  readonly legs?: number;
  /** "Decoded as … — from …" (one line, or one per leg when they differ). */
  readonly decodedAs?: readonly string[];
  readonly envelopes?: number;
  readonly results: readonly CheckedAssertion[];
  /** The file could not be read or decoded: every assertion fails with this. */
  readonly error?: string;
}

/**
 * Reads one recording and checks every assertion on it; a file that cannot be opened fails
 * them all. The file is streamed, in memory that grows with the envelopes the assertions read
 * (`readsOf`), not with the file (`status == "done"` reads none).
 */
export async function checkRecording(
  file: string,
  assertions: readonly ParsedAssertion[],
  format: FormatChoice | undefined,
  io: CliIo,
  options: Omit<DecodeFileOptions, 'inline'> = {},
): Promise<CheckedRecording> {
  const reads = assertions.map((a) => readsOf(a.tree));
  let read: Read;
  try {
    read = await readStreamed(file, format, io, options, {
      filters: reads.flatMap((r) => r.filters),
      agents: reads.some((r) => r.agents),
    });
  } catch (error) {
    // An option that does not apply to the file (--har-entry of no HAR) is the run's mistake, not the file's.
    if (error instanceof UsageError) throw error;
    const message = errorText(error);
    return {
      file,
      error: message,
      results: assertions.map((a) => ({
        name: a.name,
        expect: a.expect,
        pass: false,
        detail: `not checked: ${message}`,
      })),
    };
  }
  const reader = envelopeReader();
  return {
    ...read.facts,
    results: assertions.map((a) => ({ name: a.name, expect: a.expect, ...checkAssertion(a.tree, read.input, reader) })),
  };
}

/** What a file says once read: the facts the report shows of it, and what assertions are checked against. */
interface Read {
  facts: Omit<CheckedRecording, 'results'>;
  input: AssertionInput;
}

/** What an assertion reads of the envelopes. */
export interface Reads {
  /** The filters it picks envelopes with (none for one on the end status alone). */
  filters: Expr[];
  /** It is checked on each agent's envelopes (`every agent:`). */
  agents: boolean;
}

/**
 * What an assertion reads of the envelopes. `some`, `none`, `count`, `first`, `last` and
 * `before` look only at the envelopes their filter matches, in order: given just those, they
 * decide the same. `every agent:` also needs to know the agents, in spawn order, and which
 * sent content: each agent's first envelope and first one not a control envelope tell it.
 * Walked with a stack: no recursion over what a user typed.
 */
export function readsOf(tree: Expr): Reads {
  const reads: Reads = { filters: [], agents: false };
  const stack: Expr[] = [tree];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.kind === 'and' || node.kind === 'or') stack.push(...node.operands);
    else if (node.kind === 'not') stack.push(node.operand);
    else if (node.kind === 'every-agent') {
      reads.agents = true;
      stack.push(node.body);
    } else if (node.kind === 'some' || node.kind === 'none') reads.filters.push(node.predicate);
    else if (node.kind === 'before') reads.filters.push(node.first, node.then);
    else if (
      (node.kind === 'compare' || node.kind === 'in') &&
      (node.left.kind === 'count' || node.left.kind === 'pick')
    )
      reads.filters.push(node.left.of);
    // Anything else reads no envelope, or is refused when checked (a bare filter).
  }
  return reads;
}

/**
 * A file streamed: its facts from the streamed report and, for assertions that read envelopes,
 * the envelopes they read (`readsOf`), in order, from a streamed reading of its subjects
 * (stream-subjects.ts). What is held grows with those envelopes, not with the file.
 */
async function readStreamed(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: Omit<DecodeFileOptions, 'inline'>,
  reads: Reads,
): Promise<Read> {
  const needsSubjects = reads.filters.length > 0 || reads.agents;
  // The subjects' first pass (agents, findings, clock) shares the report's reading.
  const subjectFacts = needsSubjects ? factsReader() : undefined;
  const report = await reportFile(file, format, io, options, subjectFacts);
  const facts = {
    file,
    kind: report.kind,
    status: report.status.kind,
    legs: report.formats.length,
    decodedAs: decodedAsLines(report),
    envelopes: report.envelopes,
  };
  if (!subjectFacts) return { facts, input: { status: report.status, subjects: [] } };
  const [first] = reads.filters;
  const match = first
    ? compileFilter(reads.filters.length === 1 ? first : { kind: 'or', operands: reads.filters }, envelopeReader())
    : () => false;
  const picked = new Set<EnvelopeSubject>();
  /** Each agent's first envelope, and first that is not a control envelope (subjects come in no order). */
  const firstOf = new Map<string, EnvelopeSubject>();
  const firstContentOf = new Map<string, EnvelopeSubject>();
  const earliest = (map: Map<string, EnvelopeSubject>, subject: EnvelopeSubject): void => {
    const known = map.get(subject.agentName);
    if (!known || subject.envelope.seq < known.envelope.seq) map.set(subject.agentName, subject);
  };
  // The subjects' reading shows no progress of its own: the report's reading did.
  const pick = (subject: EnvelopeSubject): void => {
    if (match(subject)) picked.add(subject);
    if (!reads.agents) return;
    earliest(firstOf, subject);
    if (!subject.envelope.control) earliest(firstContentOf, subject);
  };
  // The second reading is the first's file again: the same threads and the same HAR entries, not its progress.
  const { counts: _shownOnce, ...again } = options;
  await streamSubjects(file, format, io, again, pick, subjectFacts.facts());
  for (const subject of [...firstOf.values(), ...firstContentOf.values()]) picked.add(subject);
  const subjects = [...picked].sort((a, b) => a.envelope.seq - b.envelope.seq);
  return { facts, input: { status: report.status, subjects } };
}
