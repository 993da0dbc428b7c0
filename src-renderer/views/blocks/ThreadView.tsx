import { Fragment } from 'react';
import type {
  BlockDetail,
  BlockSummary,
  InlineOptionsPayload,
  LegInfo,
  PendingTools,
} from '../../../src-shared/contract';
import type { FrontendAnswer } from '../../model/frontend-answers';
import type { AppModel } from '../../model/types';
import { fallbackLabel, type AgentLabel } from '../../model/agents';
import { type AgentThread } from '../../model/threads';
import { type BlockDetails } from '../../model/blocks-details';
import { BlockCard } from './BlockCard';
import { BLOCK_IDS } from './testids';
import { KIND } from '../../../src-shared/envelope/vocabulary';

/** What every thread of the view shares: the session, the block details, the selection and the handlers. */
export interface ThreadContext {
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
  /** The leg that carried each awaited client-side tool call's result (model/frontend-answers.ts). */
  frontendAnswers: ReadonlyMap<string, FrontendAnswer>;
  collapsed: ReadonlySet<string>;
  onToggle: (uuid: string) => void;
  onSelect: (summary: BlockSummary, detail: BlockDetail | null, reveal: boolean) => void;
  onJump: (blockId: number) => void;
}

/** One agent's thread: its header, its blocks in order (leg dividers between legs), its sub-agents' threads nested where they were spawned. */
export function ThreadView({
  thread,
  context,
  nested,
}: {
  thread: AgentThread;
  context: ThreadContext;
  nested: boolean;
}) {
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
                  frontendAnswer={
                    item.block.toolId === undefined ? undefined : context.frontendAnswers.get(item.block.toolId)
                  }
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
  // Results, approvals, or Anthropic's paused turn sent back: the run continued after its pause.
  'tool-results': 'continuation of the paused run',
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
