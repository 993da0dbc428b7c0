import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import type {
  BlockDetail,
  BlockSummary,
  InlineOptionsPayload,
  LegInfo,
  PendingTools,
} from '../../../src-shared/contract';
import {
  DEFAULT_TOOL_TAGS,
  formatToolList,
  INLINE_MODE_TABLE,
  INLINE_MODES,
  parseToolList,
  type InlineMode,
} from '../../../src-shared/inline/types';
import { useActiveSession, useStore, useWatchSession } from '../../app/hooks';
import type { AppModel, SessionData, ViewProps } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import { agentCount, fallbackLabel, labelAgents, type AgentLabel } from '../../model/agents';
import {
  ancestorsOf,
  buildThreads,
  countLiveBlocks,
  findThread,
  presentBlocks,
  type AgentThread,
} from '../../model/blocks';
import { createBlockDetails, type BlockDetails } from '../../model/blocks-details';
import { BlockCard, blockDomId } from './BlockCard';
import { BLOCK_IDS } from './testids';
import './blocks.css';
import { KIND } from '../../../src-shared/envelope/vocabulary';

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

  const empty = noBlocksMessage(session.blocksLoaded, sessionLive);

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
    legs: session.detail?.legs ?? [],
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
              {blockCount} block{blockCount === 1 ? '' : 's'} · {agentCount(labels)} agent
              {agentCount(labels) === 1 ? '' : 's'}
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

/** What the view says while it shows no block: that none arrived yet, or that none ever will. */
function noBlocksMessage(loaded: boolean, live: boolean): { title: string; text: string | null } {
  if (!loaded) return { title: 'Loading blocks…', text: null };
  if (live) return { title: 'Waiting for the first block…', text: 'Blocks appear here as the agent streams them.' };
  return {
    title: 'No blocks in this session',
    text: 'Nothing could be reconstructed: the Diagnostics tab says why (undetected format, no envelopes, …).',
  };
}

interface ThreadContext {
  app: AppModel;
  sessionId: string;
  details: BlockDetails;
  labels: ReadonlyMap<string, AgentLabel>;
  sessionLive: boolean;
  selectedBlock: number | null;
  flashBlock: number | null;
  expandThinking: boolean;
  pending: PendingTools | null;
  inline?: InlineOptionsPayload;
  legs: readonly LegInfo[];
  collapsed: ReadonlySet<string>;
  onToggle: (uuid: string) => void;
  onSelect: (summary: BlockSummary, detail: BlockDetail | null, reveal: boolean) => void;
  onJump: (blockId: number) => void;
}

function ThreadView({ thread, context, nested }: { thread: AgentThread; context: ThreadContext; nested: boolean }) {
  const label = context.labels.get(thread.uuid) ?? fallbackLabel(thread.uuid);
  const collapsed = context.collapsed.has(thread.uuid);
  const own = thread.items.filter((i) => i.type === 'block').length;
  const info = thread.info;
  return (
    <section
      className={`agent-thread ${nested ? 'agent-thread-nested' : ''}`}
      style={{ ['--agent-colour' as string]: label.colour }}
      data-testid={BLOCK_IDS.thread}
      data-agent={thread.uuid}
    >
      <header className="agent-header" data-testid={BLOCK_IDS.threadHeader}>
        <button
          type="button"
          className="icon-button"
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand agent' : 'Collapse agent'}
          data-testid={BLOCK_IDS.threadToggle}
          onClick={() => context.onToggle(thread.uuid)}
        >
          {collapsed ? '▸' : '▾'}
        </button>
        <span className="agent-swatch" />
        <span className="agent-name">{label.name}</span>
        <span className="mono muted" title={thread.uuid}>
          {label.shortId}
        </span>
        {info?.model && <span className="chip chip-small">{info.model}</span>}
        {nested && thread.spawnedBy !== undefined && <span className="muted">spawned by call #{thread.spawnedBy}</span>}
        {info?.userQuery && (
          <span className="agent-query" title={info.userQuery}>
            “{info.userQuery}”
          </span>
        )}
        <span className="spacer" />
        {thread.liveBlocks > 0 && context.sessionLive && (
          <span className="live-badge">
            <span className="live-dot" /> streaming
          </span>
        )}
        <span className="muted">
          {own} block{own === 1 ? '' : 's'}
        </span>
      </header>
      {!collapsed && (
        <div className="agent-items">
          {thread.items.map((item, index) =>
            item.type === 'block' ? (
              <Fragment key={item.block.id}>
                {startsLeg(thread, index) && <LegDivider leg={item.block.leg} legs={context.legs} />}
                <BlockCard
                  app={context.app}
                  sessionId={context.sessionId}
                  summary={item.block}
                  details={context.details}
                  sessionLive={context.sessionLive}
                  selected={context.selectedBlock === item.block.id}
                  flash={context.flashBlock === item.block.id}
                  expandThinking={context.expandThinking}
                  pending={item.block.kind === KIND.awaiting_frontend_tools ? context.pending : null}
                  {...(context.inline ? { inline: context.inline } : {})}
                  onSelect={context.onSelect}
                  onJump={context.onJump}
                />
              </Fragment>
            ) : (
              <ThreadView key={item.thread.uuid} thread={item.thread} context={context} nested />
            ),
          )}
        </div>
      )}
    </section>
  );
}

/** What main uses when a session says nothing (sessions made before the inline stage existed). */
const DEFAULT_INLINE: InlineOptionsPayload = {
  mode: 'auto',
  tools: DEFAULT_TOOL_TAGS.map((t) => ({ name: t.name, required: [...t.required] })),
};

/**
 * How this session reads protocols inside the model's text (docs/inline.md): the mode, and the
 * known tool tags (`search:query` = the tag search, which requires a query parameter). Main
 * parses the text blocks again and replaces the inline findings.
 */
function InlineControls({
  app,
  sessionId,
  inline,
}: {
  app: AppModel;
  sessionId: string;
  inline: InlineOptionsPayload;
}) {
  const current = formatToolList(inline.tools);
  const [tools, setTools] = useState(current);
  const [seen, setSeen] = useState(current);
  if (seen !== current) {
    setSeen(current);
    setTools(current);
  }
  const apply = (next: InlineOptionsPayload): void => {
    void app.run('Change the inline mode', () => app.commands(sessionId).setInline(next), sessionId);
  };
  const applyTools = (): void => {
    if (tools.trim() === current) return;
    apply({ mode: inline.mode, tools: parseToolList(tools).map((t) => ({ name: t.name, required: [...t.required] })) });
  };
  return (
    <>
      <label className="toolbar-field" title="How text blocks are read for protocols the model writes inside its text">
        <span className="muted">Inline</span>
        <select
          value={inline.mode}
          data-testid={BLOCK_IDS.inlineMode}
          onChange={(e) => apply({ ...inline, mode: e.target.value as InlineMode })}
        >
          {INLINE_MODES.map((mode) => (
            <option key={mode} value={mode} title={INLINE_MODE_TABLE[mode].title}>
              {mode}
            </option>
          ))}
        </select>
      </label>
      <label
        className="toolbar-field"
        title="Tool tags the model may write, each with its required parameters after ':' (search:query,extract:file_path,query)"
      >
        <span className="muted">Tools</span>
        <input
          className="input inline-tools"
          spellCheck={false}
          value={tools}
          disabled={inline.mode === 'off' || inline.mode === 'sentinel' || inline.mode === 'json'}
          data-testid={BLOCK_IDS.inlineTools}
          onChange={(e) => setTools(e.target.value)}
          onBlur={applyTools}
          onKeyDown={(e) => {
            if (e.key === 'Enter') applyTools();
          }}
        />
      </label>
    </>
  );
}

/** True when the block at `index` is the first of its thread in a later leg than the block before it. */
function startsLeg(thread: AgentThread, index: number): boolean {
  const item = thread.items[index];
  if (item?.type !== 'block') return false;
  for (let i = index - 1; i >= 0; i--) {
    const before = thread.items[i];
    if (before?.type === 'block') return before.block.leg !== item.block.leg;
  }
  return false;
}

const LEG_KINDS: Record<LegInfo['kind'], string> = {
  run: 'run',
  'tool-results': 'continuation after the frontend tool results',
  reconnect: 'reconnected stream',
  file: 'file',
};

function LegDivider({ leg, legs }: { leg: number; legs: readonly LegInfo[] }) {
  const info = legs.find((l) => l.leg === leg);
  return (
    <div className="leg-divider" data-testid={BLOCK_IDS.legDivider} data-leg={leg}>
      <span>
        leg {leg}
        {info ? ` · ${LEG_KINDS[info.kind]}` : ''}
        {info?.request ? ` · ${info.request.method} ${pathOf(info.request.url)}` : ''}
      </span>
    </div>
  );
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
