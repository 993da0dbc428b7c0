import type { ReactNode } from 'react';
import { formatCountOf } from '../model/format';

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

/** Counts of findings by severity, as small coloured badges (nothing when all are zero). */
export function SeverityCounts({ counts }: { counts: { error: number; warning: number; info: number } }) {
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
