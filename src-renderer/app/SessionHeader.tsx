import { useEffect, useState } from 'react';
import type { DownloadKind } from '../../src-shared/contract';
import { FILE_FORMATS } from '../../src-shared/export/formats';
import { ActionMenu, type ActionChoice } from '../components/ActionMenu';
import { Badge, SeverityCounts } from '../components/Badge';
import { TaskProgressBar } from '../components/TaskProgressBar';
import { requestToCurl } from '../model/connect-form';
import { decodesAgain, FORMAT_CHOICES } from '../model/format-choices';
import { FORMAT_PAIR, offersFormatPair, whenAllEnded } from '../model/format-pair';
import { replayOffer } from '../model/replay';
import { TEST_IDS } from '../testids';
import { showDiff } from '../views/diff/diff-model';
import { ReplayHitNotice } from '../views/replay/Breakpoints';
import { ReplayControls } from '../views/replay/ReplayControls';
import type { RendererApp } from '../model/types';
import { copyText } from './files';
import { decodedAsLine, fileSourceLine, stateLabel, stateTitle, stateTone } from '../model/session-state';
import { statusFields } from './status';
import type { SessionData } from '../model/types';

const EXPORTS: readonly ActionChoice<DownloadKind>[] = Object.entries(FILE_FORMATS).map(([kind, format]) => ({
  value: kind as DownloadKind,
  label: format.label,
  title: format.keeps,
}));

/** The active session: what it is, how it is going, and what can be done with it. */
export function SessionHeader({ app, session }: { app: RendererApp; session: SessionData }) {
  const { summary, live, detail } = session;
  const isLive = summary.state === 'streaming' || summary.state === 'connecting';
  const sinceStatus = useSinceStatus(live, isLive);
  const status = statusFields(summary, live, sinceStatus, session.total);
  const request = detail?.request ?? null;
  const replay = replayOffer(summary);
  const decodedAs = decodedAsLine(summary);
  const source =
    summary.source.kind === 'live'
      ? `${summary.source.method} ${summary.source.url}`
      : summary.source.kind === 'file'
        ? fileSourceLine(summary.source)
        : `replay of ${replayedTitle(app, summary.source.of)}`;

  return (
    <section className="session-header" data-testid={TEST_IDS.sessionHeader}>
      <div className="session-header-row">
        <Badge tone={stateTone(summary, session.replay)} title={stateTitle(summary)} testId={TEST_IDS.sessionState}>
          {stateLabel(summary, session.replay)}
        </Badge>
        <SessionTitle app={app} sessionId={summary.id} title={summary.title} />
        {!summary.title.includes(source) && (
          <span className="session-source" title={source}>
            {source}
          </span>
        )}
        <span className="session-actions">
          <ReplayControls app={app} />
          {/* A paused replay is stopped already: its transport plays it on or restarts it. */}
          {isLive && session.replay?.playing !== false && (
            <button
              type="button"
              className="button button-danger"
              data-testid={TEST_IDS.stopButton}
              title="Stop the stream (S)"
              onClick={() => void app.stop(summary.id)}
            >
              ■ Stop
            </button>
          )}
          {request && (
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.copyCurl}
              title="Copy the request as a curl command (secrets stay redacted)"
              onClick={() =>
                void app.run('Copy as curl', async () => {
                  await copyText(requestToCurl(request));
                  app.notify('Copied', 'The request is on the clipboard as a curl command.', summary.id);
                })
              }
            >
              Copy as curl
            </button>
          )}
          {replay.kind !== 'controls' && summary.envelopes > 0 && (
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.replayButton}
              // Replaying a stream that is still arriving would replay half of it.
              disabled={replay.kind !== 'start'}
              title={replay.kind === 'start' ? 'Play this session again with its original timing' : replay.reason}
              onClick={() =>
                void app.run(
                  'Replay',
                  async () => {
                    const replay = await app.commands(summary.id).startReplay({ paused: false });
                    app.setActiveSession(replay.id);
                  },
                  summary.id,
                )
              }
            >
              ▶ Replay
            </button>
          )}
          {offersFormatPair(summary, request) && (
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.runFormats}
              title="Run this request again in xml and in json, and open the Diff view on the two runs when both are done"
              onClick={() => void runFormatPair(app, summary.id)}
            >
              xml ⇄ json
            </button>
          )}
          {/* A HAR waiting for its entries has nothing to save or export yet. */}
          {!summary.choosingHarEntries && (
            <>
              <button
                type="button"
                className="button"
                data-testid={TEST_IDS.saveButton}
                title="Save the session as a recording"
                onClick={() => void app.saveRecording(summary.id)}
              >
                Save
              </button>
              <ActionMenu
                className="export-select"
                testId={TEST_IDS.exportMenu}
                label="Export"
                placeholder="Export…"
                choices={EXPORTS}
                onChoose={(kind) => void app.exportSession(summary.id, kind)}
              />
            </>
          )}
        </span>
      </div>
      <ReplayHitNotice app={app} />
      <div className="status-line" data-testid={TEST_IDS.statusLine}>
        {status.http && (
          <span
            className={`status-field ${summary.httpStatus !== undefined && summary.httpStatus >= 400 ? 'status-bad' : ''}`}
            data-testid={TEST_IDS.statusHttp}
          >
            {status.http}
          </span>
        )}
        <span className="status-field" data-testid={TEST_IDS.statusEnvelopes}>
          {status.envelopes}
        </span>
        <span className="status-field" data-testid={TEST_IDS.statusBytes}>
          {status.bytes}
        </span>
        {decodedAs && (
          <span className="status-field" data-testid={TEST_IDS.statusDecodedAs} title={`Dialect ${summary.format}`}>
            {decodedAs}
          </span>
        )}
        {decodesAgain(summary) && <DecodeAgainSelect app={app} sessionId={summary.id} />}
        {summary.legs > 1 && <span className="status-field">{summary.legs} legs</span>}
        {status.elapsed && (
          <span className="status-field" data-testid={TEST_IDS.statusElapsed}>
            {status.elapsed}
          </span>
        )}
        {status.rate && (
          <span className="status-field" data-testid={TEST_IDS.statusRate}>
            {status.rate}
          </span>
        )}
        {status.idle && (
          <span
            className="status-field status-idle"
            data-testid={TEST_IDS.statusIdle}
            title="No bytes for this long: the agent may be running a long tool"
          >
            {status.idle}
          </span>
        )}
        <SeverityCounts counts={summary.diagnostics} />
        {summary.recordingPath && (
          <span className="status-field" title={summary.recordingPath}>
            ● recording
          </span>
        )}
      </div>
      {session.progress && !session.progress.done && <TaskProgressBar progress={session.progress} />}
      {summary.failure && <FailurePanel failure={summary.failure} />}
    </section>
  );
}

/** Starts the xml and json runs of a session's request; the Diff view opens on them once both ended. */
async function runFormatPair(app: RendererApp, sessionId: string): Promise<void> {
  const started = await app.run(
    'Run in xml and json',
    () => app.commands(sessionId).runInFormats([...FORMAT_PAIR]),
    sessionId,
  );
  const [left, right] = started ?? [];
  if (!left || !right) return;
  app.notify(
    'Run in xml and json',
    `“${left.title}” and “${right.title}” started; the Diff view opens on them when both have ended.`,
    sessionId,
  );
  whenAllEnded(app.sessions, [left.id, right.id], () => showDiff(app, left.id, right.id));
}

function replayedTitle(app: RendererApp, id: string): string {
  return app.sessions.getSnapshot().list.find((s) => s.id === id)?.title ?? 'a closed session';
}

function FailurePanel({ failure }: { failure: NonNullable<SessionData['summary']['failure']> }) {
  const [open, setOpen] = useState(true);
  return (
    <div className="failure" data-testid={TEST_IDS.sessionFailure} role="alert">
      <div className="failure-head">
        <span className="failure-kind">{failure.kind}</span>
        <span className="failure-message">{failure.message}</span>
        {failure.status !== undefined && <span className="failure-meta">HTTP {failure.status}</span>}
        {failure.contentType && <span className="failure-meta">{failure.contentType}</span>}
        {failure.code && <span className="failure-meta">{failure.code}</span>}
        {failure.body !== undefined && (
          <button type="button" className="link-button" onClick={() => setOpen((o) => !o)}>
            {open ? 'Hide body' : 'Show body'}
          </button>
        )}
      </div>
      {open && failure.body !== undefined && (
        <pre className="failure-body">
          {failure.body}
          {failure.bodyTruncated ? '\n… (truncated)' : ''}
        </pre>
      )}
    </div>
  );
}

/** Milliseconds since the last live status, ticking once a second while the session is live. */
function useSinceStatus(live: SessionData['live'], isLive: boolean): number {
  const [state, setState] = useState({ live, since: Date.now(), now: Date.now() });
  if (state.live !== live) setState({ live, since: Date.now(), now: Date.now() });
  useEffect(() => {
    if (!isLive) return;
    const timer = window.setInterval(() => setState((s) => ({ ...s, now: Date.now() })), 1000);
    return () => window.clearInterval(timer);
  }, [isLive]);
  return Math.max(0, state.now - state.since);
}

/** The session's name: double-click it (or the pencil) to rename; Enter keeps, Esc cancels. */
function SessionTitle({ app, sessionId, title }: { app: RendererApp; sessionId: string; title: string }) {
  const [editing, setEditing] = useState<string | null>(null);
  useEffect(() => setEditing(null), [sessionId]);
  const commit = (): void => {
    const name = editing?.trim() ?? '';
    setEditing(null);
    if (name !== '' && name !== title) void app.run('Rename', () => app.commands(sessionId).rename(name), sessionId);
  };
  if (editing !== null) {
    return (
      <input
        className="input session-title-input"
        data-testid={TEST_IDS.sessionTitleInput}
        aria-label="Session name"
        value={editing}
        maxLength={200}
        autoFocus
        onChange={(event) => setEditing(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
          else if (event.key === 'Escape') setEditing(null);
        }}
      />
    );
  }
  return (
    <>
      <h1
        className="session-title"
        data-testid={TEST_IDS.sessionTitle}
        title={`${title} (double-click to rename)`}
        onDoubleClick={() => setEditing(title)}
      >
        {title}
      </h1>
      <button
        type="button"
        className="icon-button session-rename"
        data-testid={TEST_IDS.sessionRename}
        title="Rename this session"
        aria-label="Rename session"
        onClick={() => setEditing(title)}
      >
        ✎
      </button>
    </>
  );
}

/**
 * "Decode as…": the session's bytes (its file, or what a live run received) decoded again as the
 * dialect chosen (or detected, whatever the file says was chosen), as a new session in its place.
 */
function DecodeAgainSelect({ app, sessionId }: { app: RendererApp; sessionId: string }) {
  return (
    <ActionMenu
      className="status-select"
      testId={TEST_IDS.decodeAgainAs}
      label="Decode as"
      title="Decode this session's bytes again as another dialect"
      placeholder="Decode as…"
      choices={FORMAT_CHOICES}
      onChoose={(format) => void app.decodeAgainAs(sessionId, format)}
    />
  );
}
