import type { ReportedRecording } from '../../../../src-shared/recording/check-report';
import type { ImportDiagnostic } from '../../../../src-shared/recording/types';
import { reportFindingsFor } from '../../importers/check-report-targets';
import { CheckReportError } from '../../importers/types';
import type { SessionServiceDeps } from '../session-registry';

/**
 * What a check report says failed on a recording it opened, read again when its session is
 * opened again. The sessions one report opened reload together (a worker restart reopens them
 * all at once) and share one read of it, up to 64 MiB.
 */
export function createReportFindings(
  openSource: SessionServiceDeps['openSource'],
): (report: string, path: string) => Promise<ImportDiagnostic[]> {
  /** Reads of a report in flight, by its path. */
  const reads = new Map<string, Promise<readonly ReportedRecording[]>>();
  return async (report, path) => {
    let read = reads.get(report);
    if (!read) {
      read = (openSource?.(report, { checkReportOnly: true }) ?? Promise.resolve())
        .then(
          () => [],
          (error: unknown) => (error instanceof CheckReportError ? error.recordings : []),
        )
        .finally(() => reads.delete(report));
      reads.set(report, read);
    }
    return reportFindingsFor(report, await read, path);
  };
}
