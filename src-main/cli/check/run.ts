import { envelopeReader, type EnvelopeSubject, type Expr } from '../../../src-shared/filter';
import { checkAssertion, type AssertionInput } from '../../../src-shared/filter/assertions';
import type { EndStatusKind } from '../../../src-shared/pipeline/end-status';
import type { FormatChoice } from '../../../src-shared/pipeline/types';
import { decodeFile, type DecodeFileOptions } from '../decode-file';
import { reportFile } from '../stream-file';
import { buildReport, decodedAsLines } from '../report';
import { selectEnvelopes, subjectsOf } from '../filter-option';
import type { CliIo } from '../io';
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
 * them all. The file is streamed, in memory that grows with the envelopes the assertions'
 * filters select, not with the file (`status == "done"` selects none), unless an assertion is
 * `every agent:`, which reads every envelope: that file is decoded whole.
 */
export async function checkRecording(
  file: string,
  assertions: readonly ParsedAssertion[],
  format: FormatChoice,
  io: CliIo,
  options: Omit<DecodeFileOptions, 'inline'> = {},
): Promise<CheckedRecording> {
  // A small file is read whole and decoded without a turn of the event loop: the progress
  // line's timer gets one between files, or a run of many small files would never draw it.
  if (options.counts) await new Promise((resolve) => setImmediate(resolve));
  const filters = assertions.map((a) => filtersOf(a.tree));
  let read: Read;
  try {
    read = filters.every((list) => list !== null)
      ? await readStreamed(file, format, io, options, filters.flat())
      : await readDecoded(file, format, io, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
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

/**
 * The filters an assertion picks envelopes with (none for one on the end status alone), or
 * null when it reads every envelope (`every agent:` groups them all by agent). `some`, `none`,
 * `count`, `first`, `last` and `before` look only at the envelopes their filter matches, in
 * order: given just the envelopes some filter of the assertion matches, they decide the same.
 * Walked with a stack: no recursion over what a user typed.
 */
export function filtersOf(tree: Expr): Expr[] | null {
  const filters: Expr[] = [];
  const stack: Expr[] = [tree];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.kind === 'and' || node.kind === 'or') stack.push(...node.operands);
    else if (node.kind === 'not') stack.push(node.operand);
    else if (node.kind === 'some' || node.kind === 'none') filters.push(node.predicate);
    else if (node.kind === 'before') filters.push(node.first, node.then);
    else if ((node.kind === 'compare' || node.kind === 'in') && node.left.kind !== 'field') {
      if (node.left.kind !== 'status') filters.push(node.left.of);
    } else return null;
  }
  return filters;
}

/**
 * A file streamed: its facts from the streamed report, and for assertions that pick envelopes
 * with `filters`, the envelopes any of them selects (stream-subjects.ts), in order.
 */
async function readStreamed(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: Omit<DecodeFileOptions, 'inline'>,
  filters: readonly Expr[],
): Promise<Read> {
  const report = await reportFile(file, format, io, options);
  const [first] = filters;
  // The filters' reading shows no progress of its own: the report's reading did.
  const again = options.pool ? { pool: options.pool } : {};
  const subjects = first
    ? await selectEnvelopes(file, format, io, again, filters.length === 1 ? first : { kind: 'or', operands: filters })
    : [];
  const facts = {
    file,
    kind: report.kind,
    status: report.status.kind,
    legs: report.formats.length,
    decodedAs: decodedAsLines(report),
    envelopes: report.envelopes,
  };
  return { facts, input: { status: report.status, subjects } };
}

/** A file decoded whole, for assertions on its envelopes. */
async function readDecoded(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: Omit<DecodeFileOptions, 'inline'>,
): Promise<Read> {
  const decoded = await decodeFile(file, format, io, options);
  // The end status inspect reports: done, error, truncated, stopped, failed or paused.
  const { status } = buildReport(decoded);
  // Built on first use: an assertion on the status alone never needs the envelopes as subjects.
  let subjects: EnvelopeSubject[] | undefined;
  const input = {
    status,
    get subjects() {
      return (subjects ??= subjectsOf(decoded));
    },
  };
  const facts = {
    file,
    kind: decoded.kind,
    status: status.kind,
    legs: decoded.formats.length,
    decodedAs: decodedAsLines(decoded),
    envelopes: decoded.envelopes.length,
  };
  return { facts, input };
}
