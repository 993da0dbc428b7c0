import { useEffect, useMemo, useRef, type ChangeEvent } from 'react';
import type { ReplayAction, ReplayState } from '../../../src-shared/contract';
import {
  withBreakpoint,
  withoutBreakpoint,
  sameBreakpoint,
  type Breakpoint,
} from '../../../src-shared/replay/breakpoints';
import { useActiveSession, useSessionData } from '../../app/hooks';
import type { AppModel } from '../../model/types';
import { useStableHandler } from '../../app/use-stable-handler';
import { Checkbox } from '../../components/Checkbox';
import { useMenuDismiss } from '../../components/use-menu-dismiss';
import { agentTreeOrder, labelAgents, type AgentLabel } from '../../model/agents';
import { breakpointTypes, hitLabel, TOOLS_PROMPT_TYPE } from '../../model/replay';
import { REPLAY_IDS } from './testids';

/**
 * The agents of the replayed session, named as everywhere else ("main", "sub 1"…); none
 * without a source (a null id asks main for nothing).
 */
export function useSourceAgents(app: AppModel, sourceId: string | null): AgentLabel[] {
  const source = useSessionData(app, sourceId);
  const agents = source?.agents;
  return useMemo(() => agentTreeOrder(labelAgents(agents ?? [])), [agents]);
}

/**
 * The replay's breakpoints as a drop-down of checkboxes: the frontend-tools prompt, error
 * findings, each envelope type of the source, and each of its agents twice: when it starts a
 * new block, and when it takes over the stream. A playing replay pauses at the next envelope
 * one of them hits.
 */
export function BreakpointMenu({
  app,
  sourceId,
  state,
  control,
}: {
  app: AppModel;
  sourceId: string;
  state: ReplayState;
  control: (action: ReplayAction) => void;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  useMenuDismiss(details);
  const agents = useSourceAgents(app, sourceId);
  const set = state.breakpoints;
  const isSet = (breakpoint: Breakpoint): boolean => set.some((b) => sameBreakpoint(b, breakpoint));
  // One handler for every option, the same function across renders (see Checkbox).
  const toggle = useStableHandler((e: ChangeEvent<HTMLInputElement>) => {
    const breakpoint = breakpointOfKey(e.target.value);
    control({
      kind: 'breakpoints',
      breakpoints: e.target.checked ? withBreakpoint(set, breakpoint) : withoutBreakpoint(set, breakpoint),
    });
  });
  const option = (breakpoint: Breakpoint, label: string, detail?: string, colour?: string) => (
    <label
      className="multi-select-option"
      data-testid={REPLAY_IDS.breakpointOption}
      data-value={breakpointKey(breakpoint)}
    >
      <Checkbox value={breakpointKey(breakpoint)} checked={isSet(breakpoint)} onChange={toggle} />
      {colour && <span className="agent-dot" style={{ background: colour }} />}
      <span className={breakpoint.kind === 'type' ? 'mono' : undefined}>{label}</span>
      {detail && <span className="dim">{detail}</span>}
    </label>
  );
  return (
    <details
      ref={details}
      className={`multi-select replay-breakpoints ${set.length > 0 ? 'multi-select-active' : ''}`}
      data-testid={REPLAY_IDS.breakpoints}
    >
      <summary className="select select-small" title="Breakpoints: pause the replay where one hits">
        <span className="breakpoint-dot" aria-hidden="true" />
        {set.length > 0 ? set.length : 'Break'}
      </summary>
      <div className="multi-select-menu multi-select-menu-right replay-breakpoint-menu">
        <div className="multi-select-heading">Pause on</div>
        {option({ kind: 'type', type: TOOLS_PROMPT_TYPE }, TOOLS_PROMPT_TYPE, 'frontend tools prompt')}
        {option({ kind: 'error' }, 'error finding', 'each new error')}
        <div className="multi-select-heading">Envelope type (first of a run)</div>
        {breakpointTypes(state.types)
          .filter((type) => type !== TOOLS_PROMPT_TYPE)
          .map((type) => (
            <span key={type}>{option({ kind: 'type', type }, type)}</span>
          ))}
        {agents.length > 0 && <div className="multi-select-heading">Agent starts a new block</div>}
        {agents.map((agent) => (
          <span key={agent.uuid}>
            {option({ kind: 'agent-block', agent: agent.uuid }, agent.name, agent.shortId, agent.colour)}
          </span>
        ))}
        {agents.length > 0 && <div className="multi-select-heading">Agent takes over (first of its run)</div>}
        {agents.map((agent) => (
          <span key={agent.uuid}>
            {option({ kind: 'agent', agent: agent.uuid }, agent.name, agent.shortId, agent.colour)}
          </span>
        ))}
        {set.length > 0 && (
          <button
            type="button"
            className="link-button"
            data-testid={REPLAY_IDS.breakpointsClear}
            onClick={() => control({ kind: 'breakpoints', breakpoints: [] })}
          >
            Remove all breakpoints
          </button>
        )}
      </div>
    </details>
  );
}

function breakpointKey(breakpoint: Breakpoint): string {
  switch (breakpoint.kind) {
    case 'type':
      return `type:${breakpoint.type}`;
    case 'agent':
    case 'agent-block':
      return `${breakpoint.kind}:${breakpoint.agent}`;
    case 'error':
      return 'error';
  }
}

/** The breakpoint `breakpointKey` made `key` of. */
function breakpointOfKey(key: string): Breakpoint {
  if (key.startsWith('type:')) return { kind: 'type', type: key.slice('type:'.length) };
  if (key.startsWith('agent:')) return { kind: 'agent', agent: key.slice('agent:'.length) };
  if (key.startsWith('agent-block:')) return { kind: 'agent-block', agent: key.slice('agent-block:'.length) };
  return { kind: 'error' };
}

/**
 * Under the header of a replay paused at a breakpoint: which one hit and where, a way to see
 * that envelope, and Continue (plays on to the next hit).
 */
export function ReplayHitNotice({ app }: { app: AppModel }) {
  const session = useActiveSession(app);
  const sourceId = session?.summary.source.kind === 'replay' ? session.summary.source.of : null;
  const agents = useSourceAgents(app, sourceId);
  const hit = session?.replay?.hit;
  // Like a debugger showing the line it stopped at: the timeline selects the envelope that hit.
  const hitKey = hit && session ? `${session.id}:${session.summary.generation ?? 0}:${hit.envelope}` : null;
  useEffect(() => {
    if (hitKey !== null && hit && app.view.getSnapshot() === 'timeline') app.selectRow(hit.envelope);
    // The key names the hit; `hit` itself is a new object with every announced state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hitKey, app]);
  if (!session || !sourceId || !hit) return null;
  const name = (uuid: string): string => agents.find((a) => a.uuid === uuid)?.name ?? uuid;
  const sessionId = session.id;
  return (
    <div className="replay-hit" role="status" data-testid={REPLAY_IDS.hit} data-envelope={hit.envelope}>
      <span className="breakpoint-dot" aria-hidden="true" />
      <span className="replay-hit-text">Paused at breakpoint: {hitLabel(hit, name)}</span>
      <button
        type="button"
        className="button button-small"
        data-testid={REPLAY_IDS.hitShow}
        onClick={() => app.selectRow(hit.envelope)}
      >
        Show envelope
      </button>
      <button
        type="button"
        className="button button-small button-primary"
        data-testid={REPLAY_IDS.continue}
        title="Play on to the next breakpoint (k)"
        onClick={() => void app.run('Replay', () => app.commands(sessionId).replayControl({ kind: 'play' }), sessionId)}
      >
        Continue
      </button>
    </div>
  );
}
