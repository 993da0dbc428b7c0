import { RULES, type RuleId } from '../diagnostics/rules';
import type { ImportDiagnostic } from './types';

export type ImportDiagnosticInit = Omit<ImportDiagnostic, 'seq' | 'severity'>;
export type ImportDiagnosticSink = (diagnostic: ImportDiagnosticInit) => void;

/** Collects findings about one file, numbering them and taking severities from the catalogue. */
export function createImportDiagnostics(): { list: ImportDiagnostic[]; report: ImportDiagnosticSink } {
  const list: ImportDiagnostic[] = [];
  return {
    list,
    report: (init) => void list.push({ ...init, seq: list.length, severity: RULES[init.rule].severity }),
  };
}

export function fileDiagnostic(rule: RuleId, message: string, fileOffset: number, extra: { line?: number; leg?: number } = {}): ImportDiagnosticInit {
  return { rule, message, at: { fileOffset, ...extra } };
}
