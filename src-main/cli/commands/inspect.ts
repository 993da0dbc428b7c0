import { parse, parseFormat, singleFile } from '../args';
import { decodeFile } from '../decode-file';
import { envelopeJson, envelopeLine, parseOption, selectSubjects, subjectsOf } from '../filter-option';
import type { Command } from '../io';
import { buildReport, formatReport } from '../report';
import { terminalText } from '../terminal-text';

/**
 * Summary of one stream; exit code 1 when an error-severity diagnostic is found (QA gate).
 * `--filter EXPR` adds the envelopes that match a filter (docs/filters.md).
 */
export const inspect: Command = async (args, io) => {
  const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' }, filter: { type: 'string' } });
  const file = singleFile(positionals);
  const filter = values.filter !== undefined ? parseOption(values.filter, 'filter', '--filter') : null;
  const result = await decodeFile(file, parseFormat(values.format, io.dialects), io);
  const report = buildReport(result);
  const matches = filter ? selectSubjects(subjectsOf(result), filter) : null;
  if (values.json) {
    io.stdout(`${JSON.stringify({ file, ...report, ...(matches ? { filter: values.filter, matches: matches.map(envelopeJson) } : {}) }, null, 2)}\n`);
  } else {
    io.stdout(formatReport(report, file));
    if (matches) {
      io.stdout(`Envelopes matching ${terminalText(values.filter ?? '')}: ${matches.length} of ${result.envelopes.length}\n`);
      for (const s of matches) io.stdout(`  ${envelopeLine(s)}\n`);
      io.stdout('\n');
    }
  }
  return report.errors > 0 ? 1 : 0;
};
