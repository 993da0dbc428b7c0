import type { ReactNode } from 'react';
import { SEVERITIES, type Severity } from '../../src-shared/diagnostics/severity';
import { formatCountOf, formatCountShort } from '../model/format';

export type Tone = 'neutral' | 'info' | 'ok' | 'warning' | 'error' | 'failed' | 'live' | 'accent';

export function Badge({
  tone = 'neutral',
  children,
  title,
  testId,
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  testId?: string;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title} data-testid={testId}>
      {children}
    </span>
  );
}

type Counts = Readonly<Record<Severity, number>>;

/** What a finding of each severity is called in a count. */
const NOUNS: Readonly<Record<Severity, string>> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * Counts of findings by severity, as small coloured badges, worst first (nothing when all are
 * zero). `compact`: one badge, the total, coloured by the worst severity found, each count in
 * its tooltip (the sidebar, where a session's line has no room for three).
 */
export function SeverityCounts({ counts, compact = false }: { counts: Counts; compact?: boolean }) {
  const found = SEVERITIES.filter((severity) => counts[severity] > 0);
  const titleOf = (severity: Severity): string => formatCountOf(counts[severity], NOUNS[severity]);
  if (compact) {
    const worst = found[0];
    if (worst === undefined) return null;
    return (
      <span className="severity-counts">
        <Badge tone={worst} title={found.map(titleOf).join(', ')}>
          {formatCountShort(found.reduce((total, severity) => total + counts[severity], 0))}
        </Badge>
      </span>
    );
  }
  return (
    <span className="severity-counts">
      {found.map((severity) => (
        <Badge key={severity} tone={severity} title={titleOf(severity)}>
          {counts[severity]}
        </Badge>
      ))}
    </span>
  );
}
