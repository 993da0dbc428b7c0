/**
 * The severities of a finding, worst first (docs/diagnostics.md, "Severity"). The contract,
 * the filter's `finding.severity`, `--fail-on`, the badges and the views all read this list.
 */
export const SEVERITIES = ['error', 'warning', 'info'] as const;

export type Severity = (typeof SEVERITIES)[number];

/** Mildest first: the order `finding.severity >= "warning"` compares by. */
export const SEVERITIES_MILDEST_FIRST: readonly Severity[] = [...SEVERITIES].reverse();

/** How bad a severity is: info 0, warning 1, error 2. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = Object.fromEntries(
  SEVERITIES_MILDEST_FIRST.map((severity, rank) => [severity, rank]),
) as Record<Severity, number>;

export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}

/** A count per severity, all zero. */
export function zeroSeverityCounts(): Record<Severity, number> {
  return Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<Severity, number>;
}
