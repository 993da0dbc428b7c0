import { INLINE_ARGS, parse, parseFormat, parseInline, singleFile } from '../args';
import { decodeFile } from '../decode-file';
import { failReasons, parseFailOn } from '../fail-on';
import { envelopeJson, envelopeLine, parseOption, selectSubjects, subjectsOf } from '../filter-option';
import { printJson, type Command } from '../io';
import { buildReport, formatReport } from '../report';
import { terminalSafe } from '../../../src-shared/text/terminal';

/**
 * Summary of one stream, with its end status. Exit code 1 when the findings `--fail-on`
 * selects are there (default: an error-severity finding, or a stream that is truncated,
 * ended by an error or failed): the QA gate. `--filter EXPR` adds the envelopes that match a
 * filter (docs/filters.md).
 */
export const inspect: Command = async (args, io) => {
  const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' }, 'fail-on': { type: 'string', multiple: true }, filter: { type: 'string' }, ...INLINE_ARGS });
  const file = singleFile(positionals);
  const policy = parseFailOn(values['fail-on']);
  const filter = values.filter !== undefined ? parseOption(values.filter, 'filter', '--filter') : null;
  const result = await decodeFile(file, parseFormat(values.format, io.dialects), io, parseInline(values.inline, values.tools));
  const report = buildReport(result);
  const failures = failReasons(report, policy);
  const verdict = { failOn: policy.text, failures };
  const matches = filter ? selectSubjects(subjectsOf(result), filter) : null;
  if (values.json) {
    printJson(io, { file, ...report, ...verdict, ...(matches ? { filter: values.filter, matches: matches.map(envelopeJson) } : {}) });
    return failures.length > 0 ? 1 : 0;
  }
  io.stdout(`${formatReport(report, file)}${failures.length > 0 ? `Fails (--fail-on ${policy.text}): ${failures.join('; ')}.\n` : ''}`);
  if (matches) {
    io.stdout(`Envelopes matching ${terminalSafe(values.filter ?? '', { multiline: false })}: ${matches.length} of ${result.envelopes.length}\n`);
    for (const s of matches) io.stdout(`  ${envelopeLine(s)}\n`);
    io.stdout('\n');
  }
  return failures.length > 0 ? 1 : 0;
};
