import type { RendererApp, SessionData } from '../model/types';
import { TEST_IDS } from '../testids';
import { useSessionData, useStore } from './hooks';

/**
 * One line above a run of the built-in demo agent, saying what the view shows and where the
 * other half of it is: the conversation (Blocks) and the envelopes it was streamed in
 * (Timeline). A newcomer's tour opens on Blocks; the line leads to the rows behind it.
 */
export function DemoIntroLine({
  app,
  sessionId,
  view,
}: {
  app: RendererApp;
  sessionId: string;
  view: 'timeline' | 'blocks';
}) {
  const prefs = useStore(app.prefs);
  const host = useStore(app.host);
  const session = useSessionData(app, sessionId);
  if (prefs.introDismissed || !session || !isDemoRun(session, host.demo?.baseUrl)) return null;
  const other = view === 'blocks' ? 'timeline' : 'blocks';
  return (
    <div className="intro-line" data-testid={TEST_IDS.introLine}>
      <span>
        {view === 'blocks'
          ? 'A live run of the built-in demo agent: the conversation its stream makes. Its envelopes, one row each, are in '
          : 'A live run of the built-in demo agent: one row per envelope of its stream, as it arrived. The conversation they make is in '}
        <button
          type="button"
          className="link-button"
          data-testid={TEST_IDS.introOther}
          onClick={() => app.navigate(other)}
        >
          {view === 'blocks' ? 'Timeline' : 'Blocks'}
        </button>
        .
      </span>
      <span className="spacer" />
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss the introduction"
        title="Dismiss"
        onClick={() => app.prefs.update((p) => ({ ...p, introDismissed: true }))}
      >
        ×
      </button>
    </div>
  );
}

/** A session streamed from the embedded demo agent (what a first start shows). */
function isDemoRun(session: SessionData, demoBaseUrl: string | undefined): boolean {
  if (!demoBaseUrl || session.summary.source.kind !== 'live') return false;
  try {
    return new URL(session.summary.source.url).origin === new URL(demoBaseUrl).origin;
  } catch {
    return false;
  }
}
