import type { ReactNode } from 'react';
import type { PendingTools } from '../../../src-shared/contract';
import type { AppModel, SessionData } from '../../model/types';
import { pausedRecordingNotice } from '../../model/tools';
import { PauseIcon } from '../replay/icons';
import { TOOL_IDS } from './testids';

/**
 * A file that ends waiting for tools cannot be answered (there is no live run behind it);
 * replaying it pauses at the same place, and answering there plays the recorded continuation.
 */
export function FileNotice({ app, session, pending }: { app: AppModel; session: SessionData; pending: PendingTools }) {
  const { what, names, act } = pausedRecordingNotice(pending.tools);
  return (
    <ToolsNotice testId={TOOL_IDS.fileNotice}>
      <span>
        This recording stops waiting for {what}
        {names && (
          <>
            {' '}
            (<span className="mono">{names}</span>)
          </>
        )}
        . A file cannot be {act === 'answer' ? 'answered' : 'continued'}; replay it to {act} at this point and play what
        was recorded next.
      </span>
      <span className="spacer" />
      <button
        type="button"
        className="button button-small"
        data-testid={TOOL_IDS.fileReplay}
        onClick={() =>
          void app.run(
            'Replay',
            async () => {
              const replay = await app.commands(session.id).startReplay();
              app.setActiveSession(replay.id);
            },
            session.id,
          )
        }
      >
        Replay it
      </button>
    </ToolsNotice>
  );
}

/** A paused run that cannot be answered here: the pause icon and why. */
export function ToolsNotice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <section className="tools-notice" data-testid={testId} role="status">
      <span className="tools-icon" aria-hidden="true">
        <PauseIcon />
      </span>
      {children}
    </section>
  );
}
