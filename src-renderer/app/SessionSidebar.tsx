import { memo } from 'react';
import { Badge, SeverityCounts } from '../components/Badge';
import { formatCountOf, formatCountShort } from '../model/format';
import { displayTitle, stateLabel, stateTitle, stateTone } from '../model/session-state';
import { TEST_IDS } from '../testids';
import { RecentSessionsList } from '../views/requests/RecentSessionsList';
import { RequestsPanel } from '../views/requests/RequestsPanel';
import type { RendererApp } from '../model/types';
import { useStore } from './hooks';

/** The sessions main knows, newest first, plus ways to start one and the recent files. */
export const SessionSidebar = memo(function SessionSidebar({
  app,
  onOpenFile,
}: {
  app: RendererApp;
  onOpenFile: () => void;
}) {
  const { list, activeId } = useStore(app.sessions);
  const recent = useStore(app.recentFiles);

  return (
    <aside className="sidebar">
      <div className="sidebar-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid={TEST_IDS.newSession}
          onClick={() => app.navigate('connect')}
          title="New connection (1)"
        >
          + Connect
        </button>
        <button
          type="button"
          className="button"
          data-testid={TEST_IDS.openFileButton}
          onClick={onOpenFile}
          title="Open a recording or capture (Ctrl+O)"
        >
          Open file…
        </button>
      </div>
      <div className="sidebar-heading">Sessions</div>
      <ul className="session-list" data-testid={TEST_IDS.sessionList}>
        {list.length === 0 && (
          <li className="sidebar-empty">None yet. Connect to a stream or open a file; each becomes a session here.</li>
        )}
        {list.map((session) => (
          <li key={session.id}>
            <div
              role="button"
              tabIndex={0}
              className={`session-item ${session.id === activeId ? 'session-item-active' : ''}`}
              data-testid={TEST_IDS.sessionItem}
              data-session-id={session.id}
              data-state={session.state}
              data-end={session.end?.kind}
              onClick={() => {
                app.setActiveSession(session.id);
                if (app.view.getSnapshot() === 'connect') app.navigate('timeline');
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  app.setActiveSession(session.id);
                }
              }}
            >
              <div className="session-item-top">
                <span className="session-item-title" title={session.title}>
                  {displayTitle(session.title)}
                </span>
                <button
                  type="button"
                  className="icon-button session-close"
                  title="Close session"
                  aria-label={`Close ${session.title}`}
                  data-testid={TEST_IDS.sessionClose}
                  onClick={(event) => {
                    event.stopPropagation();
                    void app.closeSession(session.id);
                  }}
                >
                  ×
                </button>
              </div>
              <div className="session-item-meta">
                <Badge tone={stateTone(session)} title={stateTitle(session)} testId={TEST_IDS.sessionItemState}>
                  {stateLabel(session)}
                </Badge>
                {session.format && (
                  <span className="session-format" title={session.format}>
                    {session.format}
                  </span>
                )}
                <span className="session-count" title={formatCountOf(session.envelopes, 'envelope')}>
                  {formatCountShort(session.envelopes)} env
                </span>
                <SeverityCounts counts={session.diagnostics} compact />
              </div>
            </div>
          </li>
        ))}
      </ul>
      <RequestsPanel app={app} />
      <RecentSessionsList app={app} now={Date.now()} />
      {recent.length > 0 && (
        <>
          <div className="sidebar-heading">Recent files</div>
          <ul className="recent-list" data-testid={TEST_IDS.recentFiles}>
            {recent.slice(0, 8).map((path) => (
              <li key={path}>
                <button
                  type="button"
                  className="recent-file"
                  data-testid={TEST_IDS.recentFile}
                  title={path}
                  onClick={() => void app.openPath(path)}
                >
                  {baseName(path)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
});

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
