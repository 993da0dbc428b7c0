import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse, parseFormat } from '../args';
import { checkRecording, type CheckedRecording, type ParsedAssertion } from '../check/run';
import { checkJson, checkJunit, formatCheckReport, totalsOf } from '../check/report';
import { expandGlobs, loadSpec, type CheckSuite } from '../check/spec';
import { parseOption } from '../filter-option';
import { UsageError, type Command } from '../io';

/**
 * Assertions over recordings (docs/check.md): `--expect EXPR` (repeatable) is checked on every
 * FILE; each suite of `--spec FILE` checks its assertions on its recordings (or on the FILEs
 * when it names none). Exit 1 when an assertion fails, 2 on a usage error (a bad expression
 * shows where).
 */
export const check: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    expect: { type: 'string', multiple: true },
    spec: { type: 'string' },
    json: { type: 'boolean' },
    junit: { type: 'string' },
    format: { type: 'string' },
  });
  const format = parseFormat(values.format);
  const suites: CheckSuite[] = values.spec ? await loadSpec(resolve(io.cwd, values.spec)) : [];
  if (values.expect?.length) suites.push({ name: '--expect', recordings: [], assertions: values.expect.map((expect) => ({ name: expect, expect })) });
  if (suites.length === 0) throw new UsageError("nothing to check: give --expect 'EXPR' or --spec FILE");
  // Every expression is parsed before any file is read: a typo fails fast, with its position.
  const parsed = suites.map((suite) => ({
    suite,
    assertions: suite.assertions.map((a): ParsedAssertion => ({ ...a, tree: parseOption(a.expect, 'assertion', a.name === a.expect ? '--expect' : `'${a.name}' in ${suite.name}`) })),
  }));
  const files = await expandGlobs(positionals, io.cwd);
  const runs = parsed.map(({ suite, assertions }) => ({ recordings: suite.recordings.length > 0 ? suite.recordings : files, assertions }));
  if (runs.some((suite) => suite.recordings.length === 0)) throw new UsageError('no recordings: give FILE... or list them under recordings: in the spec');
  const checked: CheckedRecording[] = [];
  for (const suite of runs) for (const file of suite.recordings) checked.push(await checkRecording(file, suite.assertions, format, io));
  if (values.junit) await writeFile(resolve(io.cwd, values.junit), checkJunit(checked));
  io.stdout(values.json ? checkJson(checked) : formatCheckReport(checked));
  return totalsOf(checked).failed > 0 ? 1 : 0;
};
