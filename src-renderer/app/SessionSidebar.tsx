import { memo } from 'react';
import type { EndStatusPayload, ReplayState, SessionSummary } from '../../src-shared/contract';
import { Badge, SeverityCounts, type Tone } from '../components/Badge';
import { formatCount } from '../model/format';
import { TEST_IDS } from '../testids';
import { RecentSessionsList } from '../views/requests/RecentSessionsList';
import { RequestsPanel } from '../views/requests/RequestsPanel';
import type { RendererApp } from './composition';
import { useStore } from './hooks';

/** The sessions main knows, newest first, plus ways to start one and the recent files. */
export const SessionSidebar = memo(function SessionSidebar({ app, onOpenFile }: { app: RendererApp; onOpenFile: () => void }) {
  const { list, activeId } = useStore(app.sessions);
  const recent = useStore(app.recentFiles);

  return (
    <aside className="sidebar">
      <div className="sidebar-actions">
        <button type="button" className="button button-primary" data-testid={TEST_IDS.newSession} onClick={() => app.navigate('connect')} title="New connection (1)">
          + Connect
        </button>
        <button type="button" className="button" data-testid={TEST_IDS.openFileButton} onClick={onOpenFile} title="Open a recording or capture (Ctrl+O)">
          Open file…
        </button>
      </div>
      <div className="sidebar-heading">Sessions</div>
      <ul className="session-list" data-testid={TEST_IDS.sessionList}>
        {list.length === 0 && <li className="sidebar-empty">None yet. Connect to a stream or open a file; each becomes a session here.</li>}
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
                {session.format && <span className="session-format">{session.format}</span>}
                <span className="session-count">{formatCount(session.envelopes)} env</span>
                <SeverityCounts counts={session.diagnostics} />
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

/**
 * The session's badge: while it receives, what it is doing ("paused" for a paused replay: from
 * its transport state where known, else from its summary); once it ended, its end status — "done" only for a stream that
 * ended with its terminal event and nothing left open.
 */
export function stateLabel(session: SessionSummary, replay?: Pick<ReplayState, 'playing'> | null): string {
  if (session.awaitingTools) return 'awaiting tools';
  if (session.source.kind === 'replay' && session.state === 'streaming') return replayPaused(session, replay) ? 'paused' : 'replaying';
  return session.end?.label ?? session.state;
}

/** A replay that is not playing: by its transport state where known, else by its summary. */
function replayPaused(session: SessionSummary, replay: Pick<ReplayState, 'playing'> | null | undefined): boolean {
  return session.source.kind === 'replay' && session.state === 'streaming' && (replay ? !replay.playing : session.replayPaused === true);
}

export const END_TONES: Record<EndStatusPayload['kind'], Tone> = {
  done: 'ok',
  error: 'error',
  truncated: 'warning',
  stopped: 'neutral',
  failed: 'failed',
  paused: 'accent',
};

export function stateTone(session: SessionSummary, replay?: Pick<ReplayState, 'playing'> | null): Tone {
  if (session.awaitingTools) return 'accent';
  if (replayPaused(session, replay)) return 'neutral';
  if (session.end) return END_TONES[session.end.kind];
  switch (session.state) {
    case 'streaming':
    case 'connecting':
    case 'loading':
      return 'live';
    case 'complete':
      return 'ok';
    case 'failed':
      return 'failed';
    case 'stopped':
      return 'neutral';
  }
}

/** The badge's tooltip: why the session ended as it did. */
export function stateTitle(session: SessionSummary): string | undefined {
  return session.end?.reason;
}

/** Titles made of a method and URL read better without the scheme in a narrow list. */
export function displayTitle(title: string): string {
  return title.replace(/^([A-Z]+ )?https?:\/\//, '$1');
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
