import { RULES } from '../../../src-shared/diagnostics/rules';
import type { ImportDiagnosticInit, ImportDiagnosticSink } from '../../../src-shared/recording/diagnostics';
import type { ImportDiagnostic } from '../../../src-shared/recording/types';

export interface Findings {
  list: ImportDiagnostic[];
  /** Records a finding once: reading the same bytes again (a second iteration) adds nothing. */
  report: ImportDiagnosticSink;
}

export function createFindings(onDiagnostic?: (diagnostic: ImportDiagnostic) => void): Findings {
  const list: ImportDiagnostic[] = [];
  const seen = new Set<string>();
  return {
    list,
    report(init: ImportDiagnosticInit) {
      const key = `${init.rule}@${init.at.fileOffset ?? -1}@${init.at.leg ?? -1}`;
      if (seen.has(key)) return;
      seen.add(key);
      const diagnostic: ImportDiagnostic = { ...init, seq: list.length, severity: RULES[init.rule].severity };
      list.push(diagnostic);
      onDiagnostic?.(diagnostic);
    },
  };
}
