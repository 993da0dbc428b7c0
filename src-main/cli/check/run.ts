import { envelopeReader, type EnvelopeSubject, type Expr } from '../../../src-shared/filter';
import { checkAssertion } from '../../../src-shared/filter/assertions';
import type { EndStatusKind } from '../../../src-shared/pipeline/end-status';
import type { FormatChoice } from '../../../src-shared/pipeline/types';
import { decodeFile, type DecodeFileOptions } from '../decode-file';
import { buildReport, decodedAsLines } from '../report';
import { subjectsOf } from '../filter-option';
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

/** Decodes one recording and checks every assertion on it; a file that cannot be opened fails them all. */
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
  let decoded;
  try {
    decoded = await decodeFile(file, format, io, options);
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
  const reader = envelopeReader();
  return {
    file,
    kind: decoded.kind,
    status: status.kind,
    legs: decoded.formats.length,
    decodedAs: decodedAsLines(decoded),
    envelopes: decoded.envelopes.length,
    results: assertions.map((a) => ({ name: a.name, expect: a.expect, ...checkAssertion(a.tree, input, reader) })),
  };
}
