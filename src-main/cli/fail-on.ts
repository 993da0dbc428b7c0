import { RULES } from '../../src-shared/diagnostics/rules';
import { isSeverity, SEVERITY_RANK, type Severity } from '../../src-shared/diagnostics/severity';
import { END_STATUSES } from '../../src-shared/pipeline/end-status';
import { countOf } from '../../src-shared/text/count';
import { UsageError } from './io';
import type { InspectReport } from './report';

/**
 * `--fail-on`: which findings make `inspect` exit 1. Values (repeatable, or a comma list):
 * `error`, `warning`, `info` (a finding of that severity or worse), a rule id
 * (`stream.missing-done`), a rule family (`sse.*`), `end` (the stream did not end cleanly:
 * truncated, ended by an error, or failed), or `none`. Default: `error,end`.
 */
export interface FailPolicy {
  /** The lowest severity that fails; null when no severity was given. */
  severity: Severity | null;
  rules: Set<string>;
  families: Set<string>;
  end: boolean;
  /** The values as given, for the verdict line. */
  text: string;
}

export const DEFAULT_FAIL_ON = 'error,end';

export function parseFailOn(values: readonly string[] | undefined): FailPolicy {
  const items = (values && values.length > 0 ? values : [DEFAULT_FAIL_ON])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const policy: FailPolicy = {
    severity: null,
    rules: new Set(),
    families: new Set(),
    end: false,
    text: items.join(','),
  };
  if (items.includes('none')) {
    if (items.length > 1)
      throw new UsageError(`--fail-on none cannot be combined with ${items.filter((i) => i !== 'none').join(', ')}`);
    return policy;
  }
  for (const item of items) {
    if (isSeverity(item)) {
      if (policy.severity === null || SEVERITY_RANK[item] < SEVERITY_RANK[policy.severity]) policy.severity = item;
    } else if (item === 'end') policy.end = true;
    else if (item.endsWith('.*') && Object.keys(RULES).some((rule) => rule.startsWith(item.slice(0, -1))))
      policy.families.add(item.slice(0, -1));
    else if (Object.hasOwn(RULES, item)) policy.rules.add(item);
    else
      throw new UsageError(
        `--fail-on takes error, warning, info, end, none, a rule id or a rule family such as sse.*; '${item}' is none of them (rules: docs/diagnostics.md)`,
      );
  }
  return policy;
}

/** Why the report fails the policy, one reason each; empty when it passes. */
export function failReasons(report: InspectReport, policy: FailPolicy): string[] {
  const reasons: string[] = [];
  const severity = policy.severity;
  if (severity !== null) {
    const counted = report.diagnostics
      .filter((d) => SEVERITY_RANK[d.severity] >= SEVERITY_RANK[severity])
      .reduce((sum, d) => sum + d.count, 0);
    if (counted > 0)
      reasons.push(
        severity === 'error'
          ? countOf(counted, 'error finding')
          : `${countOf(counted, 'finding')} of severity ${severity} or worse`,
      );
  }
  for (const d of report.diagnostics) {
    if (policy.rules.has(d.rule) || [...policy.families].some((family) => d.rule.startsWith(family)))
      reasons.push(`${d.rule} (${d.count}×)`);
  }
  const fails = END_STATUSES[report.status.kind].fails;
  if (policy.end && fails !== null) reasons.push(`the stream ${fails}`);
  return reasons;
}
