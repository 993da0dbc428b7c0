import { RULES, type RuleId } from '../diagnostics/rules';
import type { Diagnostic } from '../diagnostics/types';
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

/** Findings that say the file lost part of the stream: the recording layer's errors (a hole, a damaged or torn line, a skipped item). */
export function losesData(diagnostic: Pick<Diagnostic, 'rule' | 'severity'>): boolean {
  return diagnostic.severity === 'error' && RULES[diagnostic.rule].layer === 'recording';
}

/** Counts the data-loss findings of a file as they come, for its end status (EndFacts.lostData). */
export class LostData {
  private count = 0;
  private first = '';

  add(diagnostic: Pick<Diagnostic, 'rule' | 'severity' | 'message'>): void {
    if (!losesData(diagnostic)) return;
    if (this.count++ === 0) this.first = diagnostic.message;
  }

  clear(): void {
    this.count = 0;
    this.first = '';
  }

  /** The phrase for the end status, or undefined when nothing was lost. */
  describe(): string | undefined {
    if (this.count === 0) return undefined;
    return this.count === 1 ? this.first : `${this.count} findings, the first: ${this.first}`;
  }
}

export function fileDiagnostic(
  rule: RuleId,
  message: string,
  fileOffset: number,
  extra: { line?: number; leg?: number } = {},
): ImportDiagnosticInit {
  return { rule, message, at: { fileOffset, ...extra } };
}
