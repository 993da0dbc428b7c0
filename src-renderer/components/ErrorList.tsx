import { useState } from 'react';
import { useStore, useStoreValue } from '../app/hooks';
import type { AppModel } from '../model/types';
import { TEST_IDS } from '../testids';

/** Errors shown in full; more fold into one line that opens them or dismisses them all. */
export const ERRORS_SHOWN = 2;

/**
 * Errors from main and from rejected commands, shown where the user is looking (the top of
 * the current view), each dismissible. Only the active session's errors and global ones show.
 * The newest come first; beyond ERRORS_SHOWN they stack into one line, so a burst of errors
 * does not push the view down the screen.
 */
export function ErrorList({ app }: { app: AppModel }) {
  const errors = useStore(app.errors);
  const activeId = useStoreValue(app.sessions, (sessions) => sessions.activeId);
  // A session's failure already has its own panel (with the body): do not say it twice.
  const failure = useStoreValue(app.sessions, ({ list }) => list.find((s) => s.id === activeId)?.failure?.message);
  const [expanded, setExpanded] = useState(false);
  const relevant = errors
    .filter(
      (e) =>
        (e.sessionId === undefined || e.sessionId === activeId) && !(e.sessionId === activeId && e.message === failure),
    )
    .reverse();
  if (relevant.length === 0) return null;
  const folded = expanded ? 0 : Math.max(0, relevant.length - ERRORS_SHOWN);
  const shown = folded > 0 ? relevant.slice(0, ERRORS_SHOWN) : relevant;
  return (
    <div className="error-list" data-testid={TEST_IDS.errorBanner} role="alert">
      {shown.map((error) => (
        <div
          key={error.id}
          className={`error-item ${error.level === 'info' ? 'error-item-info' : ''}`}
          data-testid={TEST_IDS.errorItem}
        >
          <span className="error-context">{error.context}</span>
          <span className="error-message">{error.message}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss"
            title="Dismiss"
            data-testid={TEST_IDS.errorDismiss}
            onClick={() => app.dismissError(error.id)}
          >
            ×
          </button>
        </div>
      ))}
      {(folded > 0 || (expanded && relevant.length > ERRORS_SHOWN)) && (
        <div className="error-item error-more" data-testid={TEST_IDS.errorMore}>
          <span className="error-message">{folded > 0 ? `${folded} more` : `${relevant.length} messages`}</span>
          <button type="button" className="link-button" onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Show fewer' : 'Show all'}
          </button>
          <button
            type="button"
            className="link-button"
            data-testid={TEST_IDS.errorDismissAll}
            onClick={() => app.dismissErrors(relevant.map((e) => e.id))}
          >
            Dismiss all
          </button>
        </div>
      )}
    </div>
  );
}
