import { parse, parseFormat, singleFile } from '../args';
import { decodeFile } from '../decode-file';
import { failReasons, parseFailOn } from '../fail-on';
import { printJson, type Command } from '../io';
import { buildReport, formatReport } from '../report';

/**
 * Summary of one stream, with its end status. Exit code 1 when the findings `--fail-on`
 * selects are there (default: an error-severity finding, or a stream that is truncated,
 * ended by an error or failed): the QA gate.
 */
export const inspect: Command = async (args, io) => {
  const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' }, 'fail-on': { type: 'string', multiple: true } });
  const file = singleFile(positionals);
  const policy = parseFailOn(values['fail-on']);
  const result = await decodeFile(file, parseFormat(values.format, io.dialects), io);
  const report = buildReport(result);
  const failures = failReasons(report, policy);
  const verdict = { failOn: policy.text, failures };
  if (values.json) printJson(io, { file, ...report, ...verdict });
  else io.stdout(`${formatReport(report, file)}${failures.length > 0 ? `Fails (--fail-on ${policy.text}): ${failures.join('; ')}.\n` : ''}`);
  return failures.length > 0 ? 1 : 0;
};
