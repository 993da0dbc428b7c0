import { useMemo, useState } from 'react';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import type { SessionData } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import { agentTreeOrder, labelAgents } from '../../model/agents';
import type { TimelineModel } from '../../model/timeline';
import { sessionIsTimed } from '../../model/lane-axis';
import { TEST_IDS } from '../../testids';
import { DetailPane } from './DetailPane';
import { FilterBar, FilterCount } from './FilterBar';
import { LanesView } from './LanesView';
import { ColumnChooser } from './ColumnChooser';
import { TimelineTable } from './TimelineTable';

/** The session's envelopes in arrival order (table) or per agent over time (lanes), with the detail pane. */
export function TimelineView({ app, session }: { app: RendererApp; session: SessionData }) {
  const timeline = app.timeline(session.id);
  const snapshot = useStore(timeline);
  const prefs = useStore(app.prefs);
  const selected = useStore(app.selection).row;
  // Chosen columns the table has no room for, for the chooser to say so.
  const [dropped, setDropped] = useState<readonly string[]>([]);
  const agentCount = timeline.index.agents.length;
  const labels = useMemo(
    () => labelAgents(session.agents, timeline.index.agents),
    // The index's agent list grows in place; its length says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session.agents, timeline, agentCount],
  );
  const agents = useMemo(() => agentTreeOrder(labels), [labels]);
  const sessionStart = useSessionStart(session, timeline, snapshot.version);
  const legs = session.detail?.legs;
  const legStarts = useMemo(() => legs?.map((leg) => leg.startedAt) ?? [], [legs]);
  const live =
    session.summary.state === 'streaming' ||
    session.summary.state === 'connecting' ||
    session.summary.state === 'loading';
  const streaming = session.summary.state === 'streaming' || session.summary.state === 'connecting';
  // Scanned once the session has ended, not at every batch of a loading file.
  const timed = useMemo(
    () => sessionIsTimed(timeline.index, live),
    // The index fills in place; its total says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [timeline, live, snapshot.total],
  );

  return (
    <div className="timeline-view" data-testid={TEST_IDS.timelineView}>
      <div className="timeline-toolbar">
        <div className="segmented" role="radiogroup" aria-label="Timeline mode">
          <button
            type="button"
            role="radio"
            aria-checked={prefs.timelineMode === 'table'}
            className={prefs.timelineMode === 'table' ? 'segmented-active' : ''}
            data-testid={TEST_IDS.modeTable}
            title="Envelopes in arrival order (L)"
            onClick={() => app.prefs.update((p) => ({ ...p, timelineMode: 'table' }))}
          >
            Table
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={prefs.timelineMode === 'lanes'}
            className={prefs.timelineMode === 'lanes' ? 'segmented-active' : ''}
            data-testid={TEST_IDS.modeLanes}
            title="One lane per agent across time (L)"
            onClick={() => app.prefs.update((p) => ({ ...p, timelineMode: 'lanes' }))}
          >
            Lanes
          </button>
        </div>
        <FilterBar timeline={timeline} snapshot={snapshot} agents={agents} />
        <FilterCount snapshot={snapshot} />
        {prefs.timelineMode === 'table' && <ColumnChooser app={app} dropped={dropped} />}
        {!prefs.detailOpen && selected !== null && (
          <button
            type="button"
            className="button button-small"
            onClick={() => app.prefs.update((p) => ({ ...p, detailOpen: true }))}
            title="Show the detail pane (D)"
          >
            Details ▸
          </button>
        )}
      </div>
      <div className="timeline-split">
        <div className="timeline-main">
          {snapshot.total === 0 ? (
            <EmptyState
              title={live ? 'Waiting for the first envelope…' : 'This session has no envelopes'}
              testId={TEST_IDS.timelineEmpty}
            >
              {live
                ? 'The request is open; rows appear here as the server streams them. The status line above shows the HTTP status, bytes and idle time.'
                : session.summary.failure
                  ? 'The source failed before any envelope could be decoded: the message above says why, with the response body when there was one.'
                  : 'Nothing in it decoded to an envelope. The Diagnostics view says what was found in the bytes.'}
            </EmptyState>
          ) : snapshot.visibleCount === 0 ? (
            <EmptyState title="No envelope matches the filter" testId={TEST_IDS.timelineEmpty}>
              {snapshot.searching ? 'Searching…' : 'Change or clear the filters above to see rows again.'}
            </EmptyState>
          ) : prefs.timelineMode === 'table' ? (
            // Keyed by session: following and the scroll position belong to one session.
            <TimelineTable
              key={session.id}
              app={app}
              timeline={timeline}
              snapshot={snapshot}
              labels={labels}
              sessionStart={sessionStart}
              timed={timed}
              live={streaming}
              onDropped={setDropped}
            />
          ) : (
            <LanesView
              app={app}
              timeline={timeline}
              snapshot={snapshot}
              labels={labels}
              sessionStart={sessionStart}
              legStarts={legStarts}
            />
          )}
        </div>
        {/* Only for a selected row: before that it would take the table's room to say "select a row". */}
        {prefs.detailOpen && selected !== null && snapshot.total > 0 && (
          <DetailPane
            app={app}
            sessionId={session.id}
            timeline={timeline}
            labels={labels}
            sessionStart={sessionStart}
          />
        )}
      </div>
    </div>
  );
}

/**
 * Where "time 0" is: the first leg's start when it precedes the first envelope on the same
 * clock, else the first envelope's receive time (imported files may carry other clocks).
 */
function useSessionStart(session: SessionData, timeline: TimelineModel, version: number): number {
  const legStart = session.detail?.legs[0]?.startedAt;
  const firstKnown = timeline.index.isKnown(0);
  const firstReceived = firstKnown ? timeline.index.receivedAt(0) : undefined;
  return useMemo(() => {
    if (firstReceived === undefined) return legStart ?? 0;
    if (legStart !== undefined && legStart > 0 && legStart <= firstReceived && firstReceived - legStart < 3_600_000)
      return legStart;
    return firstReceived;
    // version: the first row may arrive later.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [legStart, firstReceived, version]);
}
