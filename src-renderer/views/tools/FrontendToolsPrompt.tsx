import { useEffect, useRef, useState } from 'react';
import type { PendingTools, SendToolResultsRequest, ToolResult } from '../../../src-shared/contract';
import { useActiveSession, useSessionData, useStore } from '../../app/hooks';
import type { AppModel, SessionData, ViewProps } from '../../model/types';
import {
  buildRequest,
  draftProblem,
  draftsFor,
  pendingKey,
  draftsWithAnswers,
  recordedAnswersAt,
  waitedFor,
  withQuickAnswer,
  type QuickAnswer,
  type ToolDraft,
} from '../../model/tools';
import { PauseIcon } from '../replay/icons';
import { AutoAnswerBar } from './AutoAnswerBar';
import { autoAnswering } from './auto-answer';
import { TOOL_IDS } from './testids';
import { ToolEditor } from './ToolEditor';
import { FileNotice, ToolsNotice } from './ToolsNotices';
import '../blocks/blocks.css';
import './tools.css';

/**
 * Shown above every view. When the active session's run paused on `awaiting_frontend_tools`,
 * a prompt lists each pending tool with a result editor and sends all answers at once; the
 * continuation streams into the same session as a new leg. A replay pauses at a recorded
 * prompt too: the recorded answers are prefilled and answering plays the recorded
 * continuation. The auto-answer bar is always visible while auto-answer is on.
 */
export function FrontendToolsPrompt({ app }: ViewProps) {
  const session = useActiveSession(app);
  const { store } = autoAnswering(app);
  const settings = useStore(store);
  useAutoAnswerEverywhere(app, settings.enabled);

  const pending = session?.detail?.pendingTools ?? null;
  const awaiting =
    session !== null &&
    pending !== null &&
    (session.summary.awaitingTools || pending.answered === 'sending' || pending.answered === 'failed');
  return (
    <>
      {settings.enabled && <AutoAnswerBar app={app} />}
      {session && awaiting && pending && session.summary.source.kind === 'file' && (
        <FileNotice app={app} session={session} pending={pending} />
      )}
      {session && awaiting && pending && session.summary.source.kind !== 'file' && (
        <Prompt key={pendingKey(session.id, pending)} app={app} session={session} pending={pending} />
      )}
    </>
  );
}

/** Auto-answer watches every session that waits, not only the one on screen. */
function useAutoAnswerEverywhere(app: AppModel, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const { answerer } = autoAnswering(app);
    const watched = new Map<string, () => void>();
    const sync = (): void => {
      const { list } = app.sessions.getSnapshot();
      const waiting = new Set(list.filter((s) => s.awaitingTools).map((s) => s.id));
      for (const [id, unsubscribe] of watched) {
        if (!waiting.has(id)) {
          unsubscribe();
          watched.delete(id);
        }
      }
      for (const id of waiting) {
        if (watched.has(id)) continue;
        const store = app.session(id);
        const check = (): void => {
          const data = store.getSnapshot();
          answerer.consider(id, data.summary.awaitingTools ? (data.detail?.pendingTools ?? null) : null);
        };
        watched.set(id, store.subscribe(check));
        check();
      }
    };
    const unsubscribe = app.sessions.subscribe(sync);
    sync();
    return () => {
      unsubscribe();
      for (const off of watched.values()) off();
    };
  }, [app, enabled]);
}

/** The prompt of a replay: the source's recorded answers, once the source's detail is known. */
function Prompt(props: { app: AppModel; session: SessionData; pending: PendingTools }) {
  const { app, session, pending } = props;
  const sourceId = session.summary.source.kind === 'replay' ? session.summary.source.of : null;
  const source = useSessionData(app, sourceId);
  if (sourceId === null) return <PendingPrompt {...props} recorded={null} />;
  if (!source?.detail) return null;
  if (!source.detail.legs.some((l) => l.leg > pending.leg)) {
    return (
      <ToolsNotice testId={TOOL_IDS.replayNote}>
        <span>
          The recording ends here, waiting for {pending.tools.map((t) => t.name).join(', ')}: nothing was recorded after
          this pause, so there is no continuation to play.
        </span>
      </ToolsNotice>
    );
  }
  return <PendingPrompt {...props} recorded={recordedAnswersAt(source.detail.legs, pending.leg, pending.tools)} />;
}

function PendingPrompt({
  app,
  session,
  pending,
  recorded,
}: {
  app: AppModel;
  session: SessionData;
  pending: PendingTools;
  recorded: ToolResult[] | null;
}) {
  const replay = session.summary.source.kind === 'replay';
  /** The run's dialect continues it itself: the same request again, so no path or extra body to choose. */
  const continuedBy = pending.continuedBy;
  const [drafts, setDrafts] = useState<ToolDraft[]>(() => draftsWithAnswers(draftsFor(pending.tools), recorded));
  const [advanced, setAdvanced] = useState(false);
  const [path, setPath] = useState(pending.defaultPath);
  const [extraBody, setExtraBody] = useState(() => JSON.stringify(pending.defaultExtraBody, null, 2));
  const [sending, setSending] = useState(false);
  const firstInput = useRef<HTMLTextAreaElement>(null);
  const { store } = autoAnswering(app);
  const settings = useStore(store);

  useEffect(() => {
    firstInput.current?.focus({ preventScroll: true });
  }, []);

  const problems = drafts.map(draftProblem);
  let extraProblem: string | null = null;
  let extraValue: Record<string, unknown> | undefined;
  if (advanced) {
    try {
      const parsed: unknown = JSON.parse(extraBody || '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        extraProblem = 'Extra body fields must be a JSON object.';
      else extraValue = parsed as Record<string, unknown>;
    } catch (error) {
      extraProblem = `Extra body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  const pathProblem = advanced && !/^\/(?!\/)/.test(path) ? 'The path must start with a single /.' : null;
  const blocked = problems.some((p) => p !== null) || extraProblem !== null || pathProblem !== null;
  const state = sending ? 'sending' : pending.answered;
  const waiting = waitedFor(drafts);

  const update = (index: number, patch: Partial<ToolDraft>): void =>
    setDrafts((all) => all.map((d, i) => (i === index ? { ...d, ...patch } : d)));

  /** A quick answer (Yes, No, OK) is the whole answer of a run that waits for one tool: sent at once, no second click. */
  const quickAnswer = (index: number, answer: QuickAnswer): void => {
    const next = drafts.map((d, i) => (i === index ? withQuickAnswer(d, answer) : d));
    setDrafts(next);
    if (next.length === 1) void submit(next);
  };

  const submit = async (list: readonly ToolDraft[] = drafts): Promise<void> => {
    if (list.some((d) => draftProblem(d) !== null) || extraProblem !== null || pathProblem !== null || sending) return;
    const request: SendToolResultsRequest = buildRequest(session.id, list, { resend: pending.answered === 'failed' });
    if (advanced) {
      if (path !== pending.defaultPath) request.path = path;
      if (extraValue && JSON.stringify(extraValue) !== JSON.stringify(pending.defaultExtraBody))
        request.extraBody = extraValue;
    }
    setSending(true);
    await app.run('Send tool results', () => app.commands(session.id).sendToolResults(request), session.id);
    await app.refreshSession(session.id);
    setSending(false);
  };

  return (
    <section
      className={`tools-prompt ${replay ? 'tools-prompt-replay' : ''}`}
      data-testid={TOOL_IDS.prompt}
      data-replay={replay ? 'true' : 'false'}
      data-state={state}
      aria-label="Frontend tools waiting for an answer"
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          void submit();
        }
      }}
    >
      <header className="tools-head">
        <span className="tools-icon" aria-hidden="true">
          <PauseIcon />
        </span>
        <span className="tools-title">
          {replay ? 'The recorded run paused here for ' : 'The agent is waiting for '}
          {waiting.what}
        </span>
        <span className="muted mono small">
          {continuedBy
            ? `${continuedBy} · message ${pending.agentUuid || '(no id)'}`
            : `agent ${pending.agentUuid.slice(0, 8)}`}{' '}
          · leg {pending.leg}
        </span>
        <span className="spacer" />
        {replay && (
          <span className="chip chip-small" data-testid={TOOL_IDS.replayNote}>
            {recorded ? 'replay: the recorded answers are filled in' : 'replay: the recorded answer could not be read'}
          </span>
        )}
        {!settings.enabled && !replay && (
          <button
            type="button"
            className="link-button small"
            data-testid={TOOL_IDS.autoAnswerToggle}
            onClick={() => store.set({ ...settings, enabled: true })}
            title="Answer this and every later prompt with the auto-answer rules (for QA runs)"
          >
            Auto-answer…
          </button>
        )}
      </header>
      <div className="tools-list">
        {drafts.length === 0 && (
          <p className="muted small" data-testid={TOOL_IDS.noCall}>
            No call to answer: the API paused a long turn of its own tools. Continuing sends the message it streamed
            back as it is, and the model goes on with the turn.
          </p>
        )}
        {drafts.map((draft, index) => (
          <ToolEditor
            key={draft.toolUseId}
            draft={draft}
            problem={problems[index] ?? null}
            onChange={(patch) => update(index, patch)}
            onQuickAnswer={(answer) => quickAnswer(index, answer)}
            sendsAtOnce={drafts.length === 1}
            inputRef={index === 0 ? firstInput : undefined}
          />
        ))}
      </div>
      {advanced && (
        <div className="tools-advanced" data-testid={TOOL_IDS.advanced}>
          <label className="tools-field">
            <span className="muted">POST path on the run's origin</span>
            <input
              className="input mono"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              data-testid={TOOL_IDS.path}
              spellCheck={false}
            />
          </label>
          {pathProblem && <div className="field-error">{pathProblem}</div>}
          <label className="tools-field">
            <span className="muted">
              Extra body fields (agent_uuid and tool_results are always set by the inspector)
            </span>
            <textarea
              className="input mono"
              rows={3}
              value={extraBody}
              onChange={(e) => setExtraBody(e.target.value)}
              data-testid={TOOL_IDS.extraBody}
              spellCheck={false}
            />
          </label>
          {extraProblem && <div className="field-error">{extraProblem}</div>}
        </div>
      )}
      <footer className="tools-foot">
        <button
          type="button"
          className="button button-primary"
          disabled={blocked || state === 'sending'}
          onClick={() => void submit()}
          data-testid={TOOL_IDS.submit}
          title={`${waiting.send} (Ctrl+Enter)`}
        >
          {state === 'sending'
            ? 'Sending…'
            : replay
              ? 'Answer and play the recorded continuation'
              : pending.answered === 'failed'
                ? 'Send again'
                : waiting.send}
        </button>
        <span className="muted small" data-testid={TOOL_IDS.state}>
          {state === 'failed'
            ? 'The last send failed (see the error above); you can send again.'
            : state === 'sending'
              ? 'Sending; the continuation appears in this session as a new leg.'
              : replay
                ? 'Nothing is sent to a server: the recording continues with the leg it recorded after this pause.'
                : continuedBy
                  ? `POST ${pending.defaultPath} again with ${drafts.length === 0 ? 'the message it paused' : 'the answers'}, as ${/^[AEIOU]/.test(continuedBy) ? 'an' : 'a'} ${continuedBy} client continues the run — the continuation streams into this session as a new leg.`
                  : `POST ${pending.defaultPath} — the continuation streams into this session as a new leg.`}
        </span>
        <span className="spacer" />
        {!replay && !continuedBy && (
          <button type="button" className="link-button small" onClick={() => setAdvanced((a) => !a)}>
            {advanced ? 'Hide request options' : 'Request options…'}
          </button>
        )}
      </footer>
    </section>
  );
}
