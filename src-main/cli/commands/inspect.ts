import { INLINE_ARGS, parse, parseFormat, parseInline, singleFile } from '../args';
import { decodeFile } from '../decode-file';
import type { Command } from '../io';
import { buildReport, formatReport } from '../report';

/** Summary of one stream; exit code 1 when an error-severity diagnostic is found (QA gate). */
export const inspect: Command = async (args, io) => {
  const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' }, ...INLINE_ARGS });
  const file = singleFile(positionals);
  const result = await decodeFile(file, parseFormat(values.format, io.dialects), io, parseInline(values.inline, values.tools));
  const report = buildReport(result);
  io.stdout(values.json ? `${JSON.stringify({ file, ...report }, null, 2)}\n` : formatReport(report, file));
  return report.errors > 0 ? 1 : 0;
};
