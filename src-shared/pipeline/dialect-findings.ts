import { ruleAppliesTo, ruleDialects } from '../diagnostics/rules';
import type { DiagnosticInit } from '../diagnostics/types';

/**
 * A leg's findings filtered by the dialects their rules are for (docs/diagnostics.md): a
 * finding of a dialect-specific rule raised before the leg's dialect is known (the framer's,
 * during detection) is held until it is, then reported only if its rule applies there.
 */
export class DialectFindings {
  private dialect: string | undefined;
  private held: DiagnosticInit[] = [];

  constructor(private readonly report: (diagnostic: DiagnosticInit) => void) {}

  /** A finding of the leg (an arrow: framers and dialects take it as their sink). */
  readonly add = (diagnostic: DiagnosticInit): void => {
    if (this.dialect === undefined && ruleDialects(diagnostic.rule)) this.held.push(diagnostic);
    else if (ruleAppliesTo(diagnostic.rule, this.dialect)) this.report(diagnostic);
  };

  /** The leg decodes as `dialect` from now on (a successor may take over later). */
  decide(dialect: string): void {
    this.dialect = dialect;
  }

  /** Reports the held findings that apply to the dialect now decided (all of them when none ever is). */
  flush(): void {
    const held = this.held;
    this.held = [];
    for (const d of held) if (ruleAppliesTo(d.rule, this.dialect)) this.report(d);
  }
}
