import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { reportedRecordings } from '../../../src-shared/recording/check-report';
import { fileErrorText } from '../storage/file-error';
import { ImportError } from './types';

/** A report is one small XML file per check run; one larger than this is not read whole. */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;

const what = 'a JUnit report of stream-inspector check';

/**
 * The recordings a `check --junit` report names (the importers refused it with code
 * `check-report`), as absolute paths to open instead of it: each suite's `recording`
 * property, or its name read against the report's folder (a report written before the
 * property, or edited). Refuses a report that names none, or one whose recordings cannot all
 * be read, saying which.
 */
export async function checkReportTargets(path: string): Promise<string[]> {
  const { size } = await stat(path);
  if (size > REPORT_MAX_BYTES)
    throw new ImportError('unrecognised', path, `${path}: ${what} larger than ${REPORT_MAX_BYTES} bytes, not read`);
  const folder = dirname(path);
  const names = reportedRecordings(await readFile(path, 'utf8'));
  const targets = names.map((recording) => resolve(folder, recording.path ?? recording.name));
  if (targets.length === 0) throw new ImportError('unrecognised', path, `${path}: ${what} that names no recording`);
  const unreadable: string[] = [];
  for (const target of targets) {
    const problem = await stat(target).then(
      (info) => (info.isFile() ? null : 'not a regular file'),
      // fileErrorText says "PATH: why"; the path is quoted here instead (it is the report's text).
      (error: unknown) => fileErrorText(error)?.slice(target.length + 2) ?? String(error),
    );
    if (problem !== null) unreadable.push(`${JSON.stringify(target)}: ${problem}`);
  }
  if (unreadable.length > 0)
    throw new ImportError(
      'unreadable',
      path,
      `${path}: ${what} whose recordings cannot all be opened: ${unreadable.join('; ')}`,
    );
  return targets;
}
