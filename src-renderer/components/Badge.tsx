import type { ReactNode } from 'react';
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

interface Counts {
  error: number;
  warning: number;
  info: number;
}

/**
 * Counts of findings by severity, as small coloured badges (nothing when all are zero).
 * `compact`: one badge, the total, coloured by the worst severity and each count in its
 * tooltip (the sidebar, where a session's line has no room for three).
 */
export function SeverityCounts({ counts, compact = false }: { counts: Counts; compact?: boolean }) {
  if (compact) return <FindingsTotal counts={counts} />;
  return (
    <span className="severity-counts">
      {counts.error > 0 && (
        <Badge tone="error" title={formatCountOf(counts.error, 'error')}>
          {counts.error}
        </Badge>
      )}
      {counts.warning > 0 && (
        <Badge tone="warning" title={formatCountOf(counts.warning, 'warning')}>
          {counts.warning}
        </Badge>
      )}
      {counts.info > 0 && (
        <Badge tone="info" title={formatCountOf(counts.info, 'note')}>
          {counts.info}
        </Badge>
      )}
    </span>
  );
}

function FindingsTotal({ counts }: { counts: Counts }) {
  const total = counts.error + counts.warning + counts.info;
  if (total === 0) return null;
  const tone = counts.error > 0 ? 'error' : counts.warning > 0 ? 'warning' : 'info';
  const title = [
    counts.error > 0 ? formatCountOf(counts.error, 'error') : '',
    counts.warning > 0 ? formatCountOf(counts.warning, 'warning') : '',
    counts.info > 0 ? formatCountOf(counts.info, 'note') : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
  return (
    <span className="severity-counts">
      <Badge tone={tone} title={title}>
        {formatCountShort(total)}
      </Badge>
    </span>
  );
}
