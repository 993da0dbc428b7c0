import {
  describeFilterError,
  envelopeReader,
  FilterError,
  parseAssertion,
  parseFilter,
  type EnvelopeSubject,
  type Expr,
} from '../../src-shared/filter';
import { compileFilter } from '../../src-shared/filter/evaluate';
import { envelopeSubjects } from '../../src-shared/filter/subjects';
import type { FormatChoice } from '../../src-shared/pipeline/types';
import type { DecodedFile, DecodeFileOptions } from './decode-file';
import { streamSubjects, type FileFacts } from './stream-subjects';

export { factsReader } from './stream-subjects';
import { UsageError, type CliIo } from './io';
import { preview } from './report';
import { terminalSafe } from '../../src-shared/text/terminal';

/** A filter or assertion from the command line; a bad one is a usage error with the caret display. */
export function parseOption(source: string, mode: 'filter' | 'assertion', option: string): Expr {
  try {
    return mode === 'filter' ? parseFilter(source) : parseAssertion(source);
  } catch (error) {
    if (error instanceof FilterError) throw new UsageError(`${option}: ${describeFilterError(source, error)}`);
    throw error;
  }
}

/** The decoded file's envelopes as filter subjects. */
export function subjectsOf(decoded: DecodedFile): EnvelopeSubject[] {
  return envelopeSubjects(decoded, decoded.startedAt);
}

/**
 * The envelopes of FILE that `filter` selects, in order: read streamed (stream-subjects.ts), not
 * decoded whole. `facts`, when another reading of the file gathered them (factsReader), spare
 * the subjects' first pass.
 */
export async function selectEnvelopes(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions,
  filter: Expr,
  facts?: FileFacts,
): Promise<EnvelopeSubject[]> {
  const match = compileFilter(filter, envelopeReader());
  const matches: EnvelopeSubject[] = [];
  const select = (subject: EnvelopeSubject): void => void (match(subject) && matches.push(subject));
  await streamSubjects(file, format, io, options, select, facts);
  return matches.sort((a, b) => a.envelope.seq - b.envelope.seq);
}

/** One envelope as a terminal line: seq, leg, agent, type, final, bytes, time and a preview (line breaks from the stream escaped). */
export function envelopeLine(s: EnvelopeSubject): string {
  const e = s.envelope;
  const label = [e.extras['name'], e.extras['id']].filter((v) => typeof v === 'string').join(' ');
  return terminalSafe(
    `#${String(e.seq).padEnd(5)} leg ${e.leg}  ${s.agentName.padEnd(8)} ${e.type.padEnd(24)} ${e.final ? 'final' : '     '} ${String(e.byteEnd - e.byteStart).padStart(6)} B ${formatMs(s.time).padStart(8)}  ${label ? `${label}  ` : ''}${preview(e.delta)}`,
    { multiline: false },
  );
}

/** One envelope as JSON for `--json` output. */
export function envelopeJson(s: EnvelopeSubject): Record<string, unknown> {
  const e = s.envelope;
  return {
    seq: e.seq,
    leg: e.leg,
    frame: e.frame,
    agent: s.agentName,
    agentUuid: e.agent,
    type: e.type,
    final: e.final,
    bytes: e.byteEnd - e.byteStart,
    timeMs: s.time,
    ...(typeof e.extras['name'] === 'string' ? { name: e.extras['name'] } : {}),
    ...(typeof e.extras['id'] === 'string' ? { id: e.extras['id'] } : {}),
    delta: e.delta,
  };
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)}s` : `${Math.round(ms)}ms`;
}
