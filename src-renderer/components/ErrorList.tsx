import { useStore } from '../app/hooks';
import type { AppModel } from '../app/types';
import { TEST_IDS } from '../testids';

/**
 * Errors from main and from rejected commands, shown where the user is looking (the top of
 * the current view), each dismissible. Only the active session's errors and global ones show.
 */
export function ErrorList({ app }: { app: AppModel }) {
  const errors = useStore(app.errors);
  const { activeId, list } = useStore(app.sessions);
  // A session's failure already has its own panel (with the body): do not say it twice.
  const failure = list.find((s) => s.id === activeId)?.failure?.message;
  const shown = errors.filter((e) => (e.sessionId === undefined || e.sessionId === activeId) && !(e.sessionId === activeId && e.message === failure));
  if (shown.length === 0) return null;
  return (
    <div className="error-list" data-testid={TEST_IDS.errorBanner} role="alert">
      {shown.map((error) => (
        <div key={error.id} className={`error-item ${error.level === 'info' ? 'error-item-info' : ''}`} data-testid={TEST_IDS.errorItem}>
          <span className="error-context">{error.context}</span>
          <span className="error-message">{error.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" title="Dismiss" data-testid={TEST_IDS.errorDismiss} onClick={() => app.dismissError(error.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
