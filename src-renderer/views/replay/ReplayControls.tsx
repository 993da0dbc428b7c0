import { useEffect, useState, type ReactNode } from 'react';
import type { ReplayAction, ReplayState } from '../../../src-shared/contract';
import { isEditableTarget } from '../../app/files';
import { useActiveSession } from '../../app/hooks';
import type { AppModel, ViewProps } from '../../model/types';
import {
  progressLabel,
  replayKeyAction,
  seekAction,
  speedAction,
  speedChoices,
  speedIndex,
  speedLabel,
  stepSpeed,
} from '../../model/replay';
import { BreakpointMenu } from './Breakpoints';
import { LoopIcon, PauseIcon, PlayIcon, RestartIcon, StepIcon } from './icons';
import { REPLAY_IDS } from './testids';
import './replay.css';

const STEP_TITLE = 'Step: deliver the next event and pause (.)';

/** One button of the transport: an icon, its name for assistive technology, its key in the title. */
function TransportButton({
  label,
  title,
  testId,
  disabled,
  onClick,
  children,
}: {
  label: string;
  title: string;
  testId: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button replay-button"
      title={title}
      aria-label={label}
      data-testid={testId}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * The transport of a replay session, in the session header: play / pause, step, speed
 * (×0.25 … ×20, fast), seek by envelope. Renders nothing for other sessions (the header's
 * Replay button starts one). Keys: k play/pause, . step, < slower, > faster.
 */
export function ReplayControls({ app }: ViewProps) {
  const session = useActiveSession(app);
  if (!session || session.summary.source.kind !== 'replay') return null;
  return (
    <Transport
      // One transport per replay session: a state answered for one never shows for another.
      key={session.id}
      app={app}
      sessionId={session.id}
      sourceId={session.summary.source.of}
      state={session.replay}
      received={session.total}
    />
  );
}

function Transport({
  app,
  sessionId,
  sourceId,
  state: announced,
  received,
}: {
  app: AppModel;
  sessionId: string;
  sourceId: string;
  state: ReplayState | null;
  received: number;
}) {
  // The slider moves freely while dragged; the seek is sent on release.
  const [dragging, setDragging] = useState<number | null>(null);
  // A command answers with the new state; it stands until main announces a newer one. An
  // answer that arrives after main announced a state (a breakpoint hit while the answer to
  // Play was on its way) is older than that state, and is dropped.
  const [answered, setAnswered] = useState<ReplayState | null>(null);
  useEffect(() => setAnswered(null), [announced]);
  const state = answered ?? announced;
  const control = (action: ReplayAction): void => {
    const announcedNow = (): ReplayState | null => app.session(sessionId).getSnapshot().replay;
    const before = announcedNow();
    void app
      .run('Replay', () => app.commands(sessionId).replayControl(action), sessionId)
      .then((next) => {
        if (next && announcedNow() === before) setAnswered(next);
      });
  };
  const step = (): void => control({ kind: 'step', count: 1 });

  // When the replay stops (paused by hand, after a step or seek, at a recorded frontend-tools
  // prompt, at the end) the detail is fetched again: its per-leg counts are not in the summaries
  // main announces while it plays.
  const playing = state?.playing ?? null;
  const finished = state?.finished ?? null;
  useEffect(() => {
    if (playing === false || finished === true) void app.refreshSession(sessionId);
  }, [app, sessionId, playing, finished]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (isEditableTarget(event.target)) return;
      const action = replayKeyAction(event);
      if (!action) return;
      event.preventDefault();
      if (action === 'toggle') control(state?.playing ? { kind: 'pause' } : { kind: 'play' });
      else if (action === 'step') step();
      else control(speedAction(stepSpeed(state ?? { speed: 1, instant: false }, action === 'faster' ? 1 : -1)));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
    // `control` and `step` are rebuilt each render from the same app and session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, app, sessionId]);

  if (!state) {
    // Main announces the state right after the start; until it arrives, assume a paused start.
    return (
      <span className="replay-controls" data-testid={REPLAY_IDS.controls} data-playing="false">
        <TransportButton
          label="Play"
          title="Play (k)"
          testId={REPLAY_IDS.play}
          onClick={() => control({ kind: 'play' })}
        >
          <PlayIcon />
        </TransportButton>
        <TransportButton label="Step" title={STEP_TITLE} testId={REPLAY_IDS.step} onClick={step}>
          <StepIcon />
        </TransportButton>
        <span className="replay-position mono" data-testid={REPLAY_IDS.position}>
          {received} delivered
        </span>
      </span>
    );
  }
  // While playing, main announces the position at most ten times a second; the rows that arrived are fresher.
  const position =
    dragging ?? (state.playing ? Math.min(state.total, Math.max(state.position, received)) : state.position);
  const choices = speedChoices();
  // Paused at the start: the user chose to go back, and may want to step from there.
  const restart = (): void => control({ kind: 'restart' });

  return (
    <span
      className="replay-controls"
      data-testid={REPLAY_IDS.controls}
      data-playing={state.playing ? 'true' : 'false'}
      data-position={state.position}
    >
      {state.finished ? (
        <TransportButton
          label="Restart"
          title="Start again from the beginning (paused)"
          testId={REPLAY_IDS.restart}
          onClick={restart}
        >
          <RestartIcon />
        </TransportButton>
      ) : state.playing ? (
        <TransportButton
          label="Pause"
          title="Pause (k)"
          testId={REPLAY_IDS.pause}
          onClick={() => control({ kind: 'pause' })}
        >
          <PauseIcon />
        </TransportButton>
      ) : (
        <TransportButton
          label={state.hit ? 'Continue' : 'Play'}
          title={state.breakpoints.length > 0 ? 'Play to the next breakpoint (k)' : 'Play (k)'}
          testId={REPLAY_IDS.play}
          onClick={() => control({ kind: 'play' })}
        >
          <PlayIcon />
        </TransportButton>
      )}
      <TransportButton
        label="Step"
        title={STEP_TITLE}
        testId={REPLAY_IDS.step}
        disabled={state.finished}
        onClick={step}
      >
        <StepIcon />
      </TransportButton>
      <select
        className="select select-small replay-speed"
        value={String(speedIndex(state))}
        title={
          state.pace !== undefined
            ? 'Pace (< slower, > faster): the source has no receive times, so it plays one event at a time; fast plays at once'
            : 'Speed (< slower, > faster); fast ignores the recorded timing'
        }
        aria-label="Replay speed"
        data-testid={REPLAY_IDS.speed}
        onChange={(event) => {
          const choice = choices[Number(event.target.value)];
          if (choice) control(speedAction(choice));
        }}
      >
        {choices.map((choice, index) => (
          <option key={index} value={String(index)}>
            {speedLabel({ ...choice, ...(state.pace !== undefined ? { pace: state.pace } : {}) })}
          </option>
        ))}
      </select>
      <button
        type="button"
        className={`icon-button replay-button replay-loop ${state.loop ? 'is-on' : ''}`}
        title={
          state.loop
            ? `Looping (pass ${state.loops + 1}): click to stop after this pass`
            : 'Loop: start over at the end until turned off'
        }
        aria-label="Loop"
        aria-pressed={state.loop}
        data-testid={REPLAY_IDS.loop}
        data-loops={state.loops}
        onClick={() => control({ kind: 'loop', on: !state.loop })}
      >
        <LoopIcon />
      </button>
      <BreakpointMenu app={app} sourceId={sourceId} state={state} control={control} />
      <input
        className="replay-seek"
        type="range"
        min={0}
        max={Math.max(1, state.total)}
        step={1}
        value={position}
        aria-label="Seek (envelopes delivered)"
        data-testid={REPLAY_IDS.seek}
        onChange={(event) => setDragging(Number(event.target.value))}
        onPointerUp={() => commitSeek()}
        onKeyUp={() => commitSeek()}
        onBlur={() => setDragging(null)}
      />
      <span
        className="replay-position mono"
        data-testid={REPLAY_IDS.position}
        title="Envelopes delivered / total in the recording"
      >
        {progressLabel({ position, total: state.total })}
      </span>
      {/* Neutral: a replay of a cut or failed stream plays to its end too; a green "done" beside its
          "truncated" said the stream was fine. */}
      {state.finished && (
        <span
          className="badge"
          data-testid={REPLAY_IDS.finished}
          title="Every envelope of the recording was played; how its stream ended is the session's status"
        >
          played
        </span>
      )}
    </span>
  );

  function commitSeek(): void {
    if (dragging === null || !state) return;
    const action = seekAction(dragging, state.total);
    setDragging(null);
    if (action) control(action);
    else restart();
  }
}
