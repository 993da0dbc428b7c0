import { rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DECODE_AHEAD_BYTES, fileSizes, inOrderAhead } from '../ahead';
import { filesFrom, HAR_ENTRY_ARG, parse, parseFormat, parseHarEntry } from '../args';
import { checkRecording, type CheckedRecording, type ParsedAssertion } from '../check/run';
import { checkJson, checkJunit, formatCheckReport, totalsOf } from '../check/report';
import { loadSpec, type CheckSuite } from '../check/spec';
import { parseOption } from '../filter-option';
import { printJson, UsageError, type Command } from '../io';
import { startProgress } from '../progress';
import { parseWorkers, readAheadThreads, WORKERS_ARG } from '../workers-option';

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
    ...WORKERS_ARG,
    ...HAR_ENTRY_ARG,
  });
  const harEntry = parseHarEntry(values['har-entry']);
  const format = parseFormat(values.format);
  const suites: CheckSuite[] = values.spec ? await loadSpec(resolve(io.cwd, values.spec)) : [];
  if (values.expect?.length)
    suites.push({
      name: '--expect',
      recordings: [],
      assertions: values.expect.map((expect) => ({ name: expect, expect })),
    });
  if (suites.length === 0) throw new UsageError("nothing to check: give --expect 'EXPR' or --spec FILE");
  // Every expression is parsed before any file is read: a typo fails fast, with its position.
  const parsed = suites.map((suite) => ({
    suite,
    assertions: suite.assertions.map((a): ParsedAssertion => ({
      ...a,
      tree: parseOption(a.expect, 'assertion', a.name === a.expect ? '--expect' : `'${a.name}' in ${suite.name}`),
    })),
  }));
  const needFiles = parsed.some(({ suite }) => suite.recordings.length === 0);
  if (needFiles && positionals.length === 0)
    throw new UsageError('no recordings: give FILE... or list them under recordings: in the spec');
  const files = positionals.length > 0 ? await filesFrom(positionals, io.cwd) : [];
  const runs = parsed.flatMap(({ suite, assertions }) =>
    (suite.recordings.length > 0 ? suite.recordings : files).map((file) => ({ file, assertions })),
  );
  const checked: CheckedRecording[] = [];
  const sizes = await fileSizes(
    runs.map((run) => run.file),
    io.cwd,
  );
  const progress = startProgress(io, { totalBytes: sizes.reduce((a, b) => a + b, 0) });
  const threads = readAheadThreads(parseWorkers(values.workers));
  const results = inOrderAhead(
    runs.map((run, i) => ({ ...run, pool: threads.forFile(sizes[i] ?? 0) })),
    sizes,
    DECODE_AHEAD_BYTES,
    ({ file, assertions, pool }) =>
      checkRecording(file, assertions, format, io, {
        ...(progress.counts ? { counts: progress.counts } : {}),
        ...(pool ? { pool } : {}),
        ...(harEntry ? { harEntry } : {}),
      }),
  );
  for await (const result of results) checked.push(result);
  progress.stop();
  await threads.close();
  // printJson escapes C1 and bidi controls the JSON way (the terminal way would break the JSON).
  if (values.json) printJson(io, checkJson(checked));
  else io.stdout(formatCheckReport(checked));
  if (values.junit) await writeJunit(resolve(io.cwd, values.junit), checkJunit(checked, io.cwd));
  return totalsOf(checked).failed > 0 ? 1 : 0;
};

/**
 * Writes the JUnit report, or none at all: a CI step reading an empty or cut file (a full
 * disk) would see no failures, so a write that fails removes what it left and is an error.
 */
async function writeJunit(path: string, xml: string): Promise<void> {
  try {
    await writeFile(path, xml);
  } catch (error) {
    await rm(path, { force: true }).catch(() => undefined);
    throw new Error(`cannot write the JUnit report ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
