import type { ReactNode } from 'react';

/** What to do next, where there is nothing to show yet. */
export function EmptyState({
  title,
  children,
  actions,
  testId,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state-title">{title}</div>
      {children && <div className="empty-state-body">{children}</div>}
      {actions && <div className="empty-state-actions">{actions}</div>}
    </div>
  );
}
