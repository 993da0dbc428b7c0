import { open, readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isCheckReport, reportedRecordings } from '../../../src-shared/recording/check-report';
import { fileErrorText } from '../storage/file-error';
import { ImportError } from './types';

/** Enough of a file to tell a report by its first lines. */
const HEAD_BYTES = 4096;
/** A report is one small XML file per check run; one larger than this is not read whole. */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;

const what = 'a JUnit report of stream-inspector check';

/**
 * The recordings a `check --junit` report names, as absolute paths to open instead of it: each
 * suite's `recording` property, or its name read against the report's folder (a report
 * written before the property, or edited). Null for a file that is no such report. Refuses a
 * report that names none, or one whose recordings cannot all be read, saying which.
 */
export async function checkReportTargets(path: string): Promise<string[] | null> {
  const text = await reportText(path);
  if (text === null) return null;
  const folder = dirname(path);
  const targets = reportedRecordings(text).map((recording) => resolve(folder, recording.path ?? recording.name));
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

/** The whole text of a report; null when the file does not start as one (it is left to the importers). */
async function reportText(path: string): Promise<string | null> {
  let file;
  try {
    file = await open(path, 'r');
  } catch {
    return null; // the importers say why a file cannot be read
  }
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    await file.read(head, 0, head.length, 0);
    if (!isCheckReport(head.toString('utf8'))) return null;
    if (size > REPORT_MAX_BYTES)
      throw new ImportError('unrecognised', path, `${path}: ${what} larger than ${REPORT_MAX_BYTES} bytes, not read`);
  } finally {
    await file.close();
  }
  return readFile(path, 'utf8');
}
