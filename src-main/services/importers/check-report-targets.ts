import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { RULES } from '../../../src-shared/diagnostics/rules';
import {
  CHECK_REPORT_WHAT as what,
  type FailedCheck,
  type ReportedRecording,
} from '../../../src-shared/recording/check-report';
import type { ImportDiagnostic } from '../../../src-shared/recording/types';
import { fileErrorText } from '../storage/file-error';
import { ImportError } from './types';

/**
 * Sessions one report opens at the most: a report of a CI run over thousands of recordings
 * would otherwise flood the app. A report that would open more is refused, saying so.
 */
export const REPORT_OPENS_AT_MOST = 50;

/** A recording to open for a report: its absolute path, and the assertions that failed on it. */
export interface ReportTarget {
  path: string;
  failed: FailedCheck[];
}

/**
 * The recordings to open for a `check --junit` report at `path`, from `named`, what the
 * importers read of it (CheckReportError), as absolute paths: each suite's `recording`
 * property, or its name read against the report's folder (a report written before the
 * property, or edited). The ones whose checks failed, which are what a report is opened to
 * look at; every one when all passed. Refuses a report that names none, one that would open
 * more than REPORT_OPENS_AT_MOST, and one whose recordings cannot all be read, saying which.
 */
export async function checkReportTargets(path: string, named: readonly ReportedRecording[]): Promise<ReportTarget[]> {
  const folder = dirname(path);
  if (named.length === 0) throw new ImportError('unrecognised', path, `${path}: ${what} that names no recording`);
  const failing = named.filter((recording) => recording.failed.length > 0);
  const chosen = failing.length > 0 ? failing : named;
  if (chosen.length > REPORT_OPENS_AT_MOST)
    throw new ImportError(
      'unrecognised',
      path,
      `${path}: ${what} that names ${chosen.length} recordings${failing.length > 0 ? ' whose checks failed' : ''}, more than the ${REPORT_OPENS_AT_MOST} one report opens: open them one by one, or check fewer in one run`,
    );
  const targets = chosen.map((recording) => targetOf(folder, recording));
  const unreadable: string[] = [];
  for (const { path: target } of targets) {
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

/** A recording the report names, as a target: its path read against the report's folder. */
const targetOf = (folder: string, recording: ReportedRecording): ReportTarget => ({
  path: resolve(folder, recording.path ?? recording.name),
  failed: recording.failed,
});

/**
 * The findings the report at `report` gives the recording at `path` (absolute), from `named`,
 * what the importers read of it: for a recording opened again under its old id (a worker
 * restart), whose findings from the report went with the worker. None when the report no longer
 * names it.
 */
export function reportFindingsFor(
  report: string,
  named: readonly ReportedRecording[],
  path: string,
): ImportDiagnostic[] {
  const folder = dirname(report);
  const target = named.map((recording) => targetOf(folder, recording)).find((t) => t.path === path);
  return target ? checkFindings(report, target) : [];
}

/** The findings a recording opened for a report starts with: each assertion that failed on it, and why. */
export function checkFindings(report: string, target: ReportTarget): ImportDiagnostic[] {
  const rule = 'recording.check-failed';
  return target.failed.map((failure, seq) => ({
    rule,
    severity: RULES[rule].severity,
    seq,
    at: {},
    message: `The check ${failure.expect} failed (${basename(report)}): ${failure.detail}`,
  }));
}
