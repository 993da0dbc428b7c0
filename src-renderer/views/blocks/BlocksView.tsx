import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BlockDetail, BlockSummary } from '../../../src-shared/contract';
import { useActiveSession, useStore, useWatchSession } from '../../app/hooks';
import type { AppModel, SessionData, ViewProps } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import { agentsOf, labelAgents } from '../../model/agents';
import { formatCountOf } from '../../model/format';
import { ancestorsOf, buildThreads, countLiveBlocks, findThread, presentBlocks } from '../../model/threads';
import { createBlockDetails, type BlockDetails } from '../../model/blocks-details';
import { frontendAnswers } from '../../model/frontend-answers';
import { noBlocksMessage } from '../../model/no-blocks';
import { blockDomId } from './BlockCard';
import { BLOCK_IDS } from './testids';
import './blocks.css';
import { DEFAULT_INLINE, InlineControls } from './InlineControls';
import { ThreadView, type ThreadContext } from './ThreadView';

/**
 * The reconstructed conversation of the active session: one thread per root agent, each
 * sub-agent's thread nested at the spawn_subagent call that started it. Contents are fetched
 * for the blocks on screen; clicking a block highlights its envelopes in the timeline.
 */
export function BlocksView({ app }: ViewProps) {
  const session = useActiveSession(app);
  if (!session) {
    return (
      <div className="blocks-view" data-testid={BLOCK_IDS.view}>
        <EmptyState title="No session selected" testId={BLOCK_IDS.empty}>
          Connect to the demo agent (Connect tab) or open a recording; its reconstructed conversation appears here.
        </EmptyState>
      </div>
    );
  }
  return <SessionBlocks key={session.id} app={app} session={session} />;
}

const STREAMING_STATES = new Set(['connecting', 'streaming', 'loading']);

function isSessionLive(session: SessionData): boolean {
  if (STREAMING_STATES.has(session.summary.state)) return true;
  return session.replay !== null && !session.replay.finished;
}

/** `inlineKey` changes when the session's inline mode does: every text block's segments are new then. */
function useBlockDetails(app: AppModel, sessionId: string, inlineKey: string): BlockDetails | null {
  const [details, setDetails] = useState<BlockDetails | null>(null);
  useEffect(() => {
    const created = createBlockDetails({
      fetch: (block) => app.commands(sessionId).block(block),
      now: () => performance.now(),
      schedule: (callback, ms) => void window.setTimeout(callback, ms),
    });
    setDetails(created);
    return () => created.dispose();
  }, [app, sessionId, inlineKey]);
  return details;
}

interface Focus {
  block: number;
  /** Bumps on every jump, so jumping to the same block again scrolls again. */
  revision: number;
}

function SessionBlocks({ app, session }: { app: AppModel; session: SessionData }) {
  const inline = session.summary.inline;
  const details = useBlockDetails(app, session.id, JSON.stringify(inline ?? null));
  const selection = useStore(app.selection);
  const [agentFilter, setAgentFilter] = useState<string>('');
  const [expandThinking, setExpandThinking] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focus, setFocus] = useState<Focus | null>(() =>
    selection.sessionId === session.id && selection.block !== null ? { block: selection.block, revision: 0 } : null,
  );
  useWatchSession(app, session.id, 'blocks');

  const { agents, blocks, blocksVersion } = session;
  const threads = useMemo(() => buildThreads(agents, blocks), [agents, blocks]);
  const labels = useMemo(
    () => labelAgents(agents, [...new Set(presentBlocks(blocks).map((b) => b.agent))]),
    [agents, blocks],
  );
  const blockCount = useMemo(() => presentBlocks(blocks).length, [blocks]);
  const legs = session.detail?.legs;
  const answers = useMemo(() => frontendAnswers(blocks, legs ?? []), [blocks, legs]);
  const shown = useMemo(
    () => (agentFilter === '' ? threads : findThread(threads, agentFilter)),
    [threads, agentFilter],
  );
  const sessionLive = isSessionLive(session);
  const liveCount = sessionLive ? countLiveBlocks(threads) : 0;
  const pending = session.detail?.pendingTools ?? null;

  // Jumping to a block: expand the threads that hold it, then scroll it into view.
  const focusBlock = session.blocks[focus?.block ?? -1];
  useEffect(() => {
    if (!focus || !focusBlock) return;
    const ancestors = ancestorsOf(threads, focusBlock.agent);
    setCollapsed((current) =>
      ancestors.some((a) => current.has(a)) ? new Set([...current].filter((c) => !ancestors.includes(c))) : current,
    );
    const frame = requestAnimationFrame(() =>
      document
        .getElementById(blockDomId(session.id, focus.block))
        ?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [focus, focusBlock, threads, session.id]);

  const [flash, setFlash] = useState<number | null>(null);
  useEffect(() => {
    if (!focus) return;
    setFlash(focus.block);
    const timer = window.setTimeout(() => setFlash(null), 1600);
    return () => window.clearTimeout(timer);
  }, [focus]);

  const onJump = useCallback((block: number) => setFocus((f) => ({ block, revision: (f?.revision ?? 0) + 1 })), []);

  const onSelect = useCallback(
    (summary: BlockSummary, detail: BlockDetail | null, reveal: boolean) => {
      const select = (envelopes: readonly number[]): void =>
        app.selectEnvelopes(envelopes, { block: summary.id, reveal });
      if (detail) select(detail.envelopes);
      else
        void app
          .run('Select block', () => app.commands(session.id).block(summary.id), session.id)
          .then((d) => d && select(d.envelopes));
    },
    [app, session.id],
  );

  const toggleThread = useCallback((uuid: string) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(uuid)) next.delete(uuid);
      else next.add(uuid);
      return next;
    });
  }, []);

  if (!details) return null;

  const empty = noBlocksMessage(session.summary, session.blocksLoaded, sessionLive);

  const selectedBlock = selection.sessionId === session.id ? selection.block : null;
  const context: ThreadContext = {
    app,
    sessionId: session.id,
    details,
    labels,
    sessionLive,
    selectedBlock,
    flashBlock: flash,
    expandThinking,
    pending,
    ...(inline ? { inline } : {}),
    legs: legs ?? [],
    frontendAnswers: answers,
    collapsed,
    onToggle: toggleThread,
    onSelect,
    onJump,
  };

  return (
    <div className="blocks-view" data-testid={BLOCK_IDS.view} data-blocks-version={blocksVersion}>
      <div className="blocks-toolbar toolbar" data-testid={BLOCK_IDS.toolbar}>
        <label className="toolbar-field">
          <span className="muted">Agent</span>
          <select
            value={agentFilter}
            onChange={(e) => setAgentFilter(e.target.value)}
            data-testid={BLOCK_IDS.agentFilter}
          >
            <option value="">All agents, nested</option>
            {[...labels.values()].map((label) => (
              <option key={label.uuid} value={label.uuid}>
                {'  '.repeat(label.indent)}
                {label.name} · {label.shortId}
              </option>
            ))}
          </select>
        </label>
        <InlineControls app={app} sessionId={session.id} inline={inline ?? DEFAULT_INLINE} />
        <label className="toolbar-check">
          <input
            type="checkbox"
            checked={expandThinking}
            onChange={(e) => setExpandThinking(e.target.checked)}
            data-testid={BLOCK_IDS.expandThinking}
          />
          Expand thinking
        </label>
        <span className="spacer" />
        {/* Until the first fetch answers, "0 blocks" would be a claim about the session. */}
        <span className="muted" data-testid={BLOCK_IDS.count} data-loaded={session.blocksLoaded}>
          {session.blocksLoaded ? (
            <>
              {formatCountOf(blockCount, 'block')} · {agentsOf(labels)}
              {liveCount > 0 && ` · ${liveCount} live`}
            </>
          ) : (
            'Loading blocks…'
          )}
        </span>
        <span className="muted hint">Click a block to highlight its envelopes; ⇱ opens them in the timeline.</span>
      </div>
      <div className="blocks-scroll">
        {blockCount === 0 ? (
          <EmptyState title={empty.title} testId={BLOCK_IDS.empty}>
            {empty.text}
          </EmptyState>
        ) : (
          shown.map((thread) => <ThreadView key={thread.uuid} thread={thread} context={context} nested={false} />)
        )}
      </div>
    </div>
  );
}
