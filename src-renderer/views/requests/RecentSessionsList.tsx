import { memo, useState } from 'react';
import type { RecentSession } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { Badge } from '../../components/Badge';
import { formatCountOf, formatCountShort } from '../../model/format';
import { timeAgo } from '../../model/requests';
import { TEST_IDS } from '../../testids';
import { END_TONES, displayTitle } from '../../model/session-state';

const KEEP_CHOICES = [0, 10, 20, 50, 100] as const;
/** How many the sidebar lists before "Show all". */
const FOLDED = 5;

/** Live sessions of earlier runs, reopened from the recordings main keeps (newest first). */
export const RecentSessionsList = memo(function RecentSessionsList({ app, now }: { app: RendererApp; now: number }) {
  const recent = useStore(app.recentSessions);
  const [unfolded, setUnfolded] = useState(false);
  if (!recent) return null;
  const shown = unfolded ? recent.sessions : recent.sessions.slice(0, FOLDED);
  return (
    <section data-testid={TEST_IDS.recentSessions}>
      <div className="sidebar-heading sidebar-heading-row">
        <span>Recent sessions</span>
        <select
          className="recent-keep"
          aria-label="How many recent sessions to keep"
          title={`Live sessions are kept as recordings (secrets redacted) in ${recent.folder}`}
          data-testid={TEST_IDS.recentSessionsKeep}
          value={recent.keep}
          onChange={(event) => void app.setRecentSessionsKeep(Number(event.target.value))}
        >
          {[...new Set([...KEEP_CHOICES, recent.keep])].map((n) => (
            <option key={n} value={n}>
              {n === 0 ? 'keep none' : `keep ${n}`}
            </option>
          ))}
        </select>
      </div>
      <ul className="recent-list">
        {recent.sessions.length === 0 && (
          <li className="sidebar-empty">
            {recent.keep === 0
              ? 'Not kept (choose how many to keep).'
              : 'Live sessions appear here once they end, and stay after a restart.'}
          </li>
        )}
        {shown.map((session) => (
          <li key={session.id}>
            <button
              type="button"
              className="recent-session"
              data-testid={TEST_IDS.recentSession}
              data-recent-id={session.id}
              title={recentTitle(session)}
              onClick={() => void app.openRecentSession(session.id)}
            >
              <span className="recent-session-title">{displayTitle(session.title)}</span>
              <span className="recent-session-meta">
                {session.end && (
                  <Badge tone={END_TONES[session.end.kind]} title={session.end.reason}>
                    {session.end.label}
                  </Badge>
                )}
                {session.format && (
                  <span className="session-format" title={session.format}>
                    {session.format}
                  </span>
                )}
                <span className="recent-session-count" title={formatCountOf(session.envelopes, 'envelope')}>
                  {formatCountShort(session.envelopes)} env
                </span>
                <span className="recent-session-when">{timeAgo(session.endedAt, now)}</span>
              </span>
            </button>
          </li>
        ))}
        {recent.sessions.length > FOLDED && (
          <li>
            <button type="button" className="link-button recent-more" onClick={() => setUnfolded((u) => !u)}>
              {unfolded ? 'Show fewer' : `Show all ${recent.sessions.length}`}
            </button>
          </li>
        )}
      </ul>
    </section>
  );
});

function recentTitle(session: RecentSession): string {
  return `${session.title}\n${session.method} ${session.url}\nEnded ${new Date(session.endedAt).toLocaleString()}${session.end ? ` — ${session.end.label}` : ''}\nClick to reopen from its recording`;
}
