/**
 * The filter language: one parser for the timeline's filter box, `inspect --filter`,
 * `frames --filter` and `check` (docs/filters.md).
 */
import type { Expr } from './ast';
import { ENVELOPE_FIELDS, envelopeText, type EnvelopeSubject } from './envelope-fields';
import { compileFilter, type Predicate, type SubjectReader } from './evaluate';
import type { FieldTable } from './fields';
import { parseExpression } from './parser';

export type { Expr } from './ast';
export { FilterError, describeFilterError } from './errors';
export { printExpression } from './print';
export { ENVELOPE_FIELDS, type EnvelopeSubject } from './envelope-fields';

/** Parses a filter: a condition on one envelope. Throws FilterError with the position. */
export function parseFilter(source: string, fields: FieldTable<EnvelopeSubject> = ENVELOPE_FIELDS): Expr {
  return parseExpression(source, 'filter', fields);
}

/** Parses an assertion over a recording (`some …`, `count(…) >= 3`, `status == "done"`…). */
export function parseAssertion(source: string, fields: FieldTable<EnvelopeSubject> = ENVELOPE_FIELDS): Expr {
  return parseExpression(source, 'assertion', fields);
}

/** Reads every field of the table, and the bare-string text search, from envelope subjects. */
export function envelopeReader(fields: FieldTable<EnvelopeSubject> = ENVELOPE_FIELDS): SubjectReader<EnvelopeSubject> {
  return { field: (name) => fields.field(name), text: envelopeText };
}

/** Parse and compile a filter over envelope subjects in one step. */
export function envelopeFilter(
  source: string,
  fields: FieldTable<EnvelopeSubject> = ENVELOPE_FIELDS,
): Predicate<EnvelopeSubject> {
  return compileFilter(parseFilter(source, fields), envelopeReader(fields));
}
