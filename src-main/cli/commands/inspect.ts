import { DECODE_AHEAD_BYTES, fileSizes, inOrderAhead } from '../ahead';
import { filesFrom, HAR_ENTRY_ARG, INLINE_ARGS, parse, parseFormat, parseHarEntry, parseInline } from '../args';
import type { DecodeFileOptions } from '../decode-file';
import { reportFile } from '../stream-file';
import { parseWorkers, readAheadThreads, WORKERS_ARG } from '../workers-option';
import { failReasons, parseFailOn } from '../fail-on';
import type { Expr } from '../../../src-shared/filter';
import type * as FilterOption from '../filter-option';
import { errorText, printJson, UsageError, type CliIo, type Command } from '../io';
import { formatReport } from '../report';
import { startProgress } from '../progress';
import { terminalSafe } from '../../../src-shared/text/terminal';

/**
 * Summary of each stream, with its end status. Exit code 1 when the findings `--fail-on`
 * selects are there in any of them (default: an error-severity finding, or a stream that is
 * truncated, ended by an error or failed): the QA gate. `--filter EXPR` adds the envelopes
 * that match a filter (docs/filters.md). Many files (paths or globs) decode in one run, a few
 * small ones at once (src-main/cli/ahead.ts), reported in order: `--json` then prints an
 * array of the reports.
 */
export const inspect: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    'fail-on': { type: 'string', multiple: true },
    filter: { type: 'string' },
    ...INLINE_ARGS,
    ...WORKERS_ARG,
    ...HAR_ENTRY_ARG,
  });
  const harEntry = parseHarEntry(values['har-entry']);
  const files = await filesFrom(positionals, io.cwd);
  const options: InspectOptions = {
    format: parseFormat(values.format, io.dialects),
    inline: parseInline(values.inline, values.tools),
    policy: parseFailOn(values['fail-on']),
    filter: values.filter !== undefined ? await loadFilter(values.filter) : null,
  };
  const reports: object[] = [];
  let failed = 0;
  const sizes = await fileSizes(files, io.cwd);
  const progress = startProgress(io, { totalBytes: sizes.reduce((a, b) => a + b, 0) });
  const threads = readAheadThreads(parseWorkers(values.workers));
  const results = inOrderAhead(
    files.map((file, i) => ({ file, pool: threads.forFile(sizes[i] ?? 0) })),
    sizes,
    DECODE_AHEAD_BYTES,
    ({ file, pool }) =>
      inspectOne(file, options, io, {
        ...(progress.counts ? { counts: progress.counts } : {}),
        ...(pool ? { pool } : {}),
        ...(harEntry ? { harEntry } : {}),
      }).catch((error: unknown) => {
        // One file of many that cannot be read does not cost the others their reports (as in
        // `check`): it is said where it comes, and the run exits 2. Alone, it is the run's error.
        if (files.length === 1 || error instanceof UsageError) throw error;
        return { file, unreadable: errorText(error) };
      }),
  );
  let unreadable = 0;
  for await (const result of results) {
    progress.clear();
    if ('unreadable' in result) {
      unreadable++;
      io.stderr(`stream-inspector inspect: ${result.unreadable}\n`);
      if (values.json) reports.push({ file: result.file, error: result.unreadable });
      continue;
    }
    const { file, json, text, fails } = result;
    if (fails) failed++;
    if (values.json) reports.push(json);
    else io.stdout(`${files.length > 1 && file !== files[0] ? '\n' : ''}${text}`);
  }
  progress.stop();
  await threads.close();
  if (values.json) printJson(io, files.length === 1 ? reports[0] : reports);
  else if (files.length > 1)
    io.stdout(
      `\n${files.length} files: ${failed} fail${failed === 1 ? 's' : ''} (--fail-on ${options.policy.text})${unreadable > 0 ? `, ${unreadable} cannot be read` : ''}.\n`,
    );
  return unreadable > 0 ? 2 : failed > 0 ? 1 : 0;
};

interface InspectOptions {
  format: ReturnType<typeof parseFormat>;
  inline: ReturnType<typeof parseInline>;
  policy: ReturnType<typeof parseFailOn>;
  filter: { text: string; expr: Expr; option: typeof FilterOption } | null;
}

/** The filter language (and its RE2 engine) loads only for a run that filters: start-up is every run's. */
async function loadFilter(text: string): Promise<NonNullable<InspectOptions['filter']>> {
  const option = await import('../filter-option');
  return { text, expr: option.parseOption(text, 'filter', '--filter'), option };
}

/** One file's report as JSON and as text, and whether it fails the policy. */
async function inspectOne(
  file: string,
  { format, inline, policy, filter }: InspectOptions,
  io: CliIo,
  decodeOptions: Omit<DecodeFileOptions, 'inline'>,
): Promise<{ file: string; json: object; text: string; fails: boolean }> {
  const decode = { inline, ...decodeOptions };
  // A filter's first pass (the agents, findings and clock its subjects need) shares the
  // report's reading; its second reads the file again, streamed too (its progress is the first's).
  const facts = filter ? filter.option.factsReader() : undefined;
  const report = await reportFile(file, format, io, decode, facts);
  const failures = failReasons(report, policy);
  const again = { inline, ...(decodeOptions.pool ? { pool: decodeOptions.pool } : {}) };
  const matches =
    filter && facts ? await filter.option.selectEnvelopes(file, format, io, again, filter.expr, facts.facts()) : null;
  const json = {
    file,
    ...report,
    failOn: policy.text,
    failures,
    ...(matches && filter ? { filter: filter.text, matches: matches.map(filter.option.envelopeJson) } : {}),
  };
  let text = `${formatReport(report, file)}${failures.length > 0 ? `Fails (--fail-on ${policy.text}): ${failures.join('; ')}.\n` : ''}`;
  if (matches && filter) {
    text += `Envelopes matching ${terminalSafe(filter.text, { multiline: false })}: ${matches.length} of ${report.envelopes}\n`;
    for (const s of matches) text += `  ${filter.option.envelopeLine(s)}\n`;
    text += '\n';
  }
  return { file, json, text, fails: failures.length > 0 };
}
