import type { AgentInfoPayload, BlockSummary } from '../../src-shared/contract';
import { KIND } from '../../src-shared/envelope/vocabulary';

/**
 * The blocks view's model: a session's reconstructed blocks arranged as one conversation per
 * root agent, each sub-agent's conversation nested at the `spawn_subagent` tool call that
 * started it (the call whose result names the child's uuid; before that result arrives, the
 * parent's spawn calls are taken in order; without any spawn call, where the child started).
 */

export interface AgentThread {
  uuid: string;
  info: AgentInfoPayload | undefined;
  /** 0 for a root agent. */
  depth: number;
  items: ThreadItem[];
  /** Block id of the tool call that spawned this agent, when one was found. */
  spawnedBy: number | undefined;
  /** Envelope seq where the agent first appears (orders siblings). */
  firstEnvelope: number;
  /** Blocks of this agent still streaming (its own, not its children's). */
  liveBlocks: number;
}

export type ThreadItem = { type: 'block'; block: BlockSummary } | { type: 'agent'; thread: AgentThread };

/** The tool that runs a sub-agent (upstream `SubAgentTool`). */
export const SPAWN_TOOL = 'spawn_subagent';

const AGENT_UUID_IN_RESULT = /Agent UUID: ([0-9A-Za-z-]{8,64})/;

/** The child uuid a spawn_subagent result names (`[Subagent 'x' completed]\nAgent UUID: …`). */
export function spawnedAgentOf(result: Pick<BlockSummary, 'kind' | 'name' | 'preview'>): string | undefined {
  if (result.kind !== KIND.tool_result || result.name !== SPAWN_TOOL) return undefined;
  return AGENT_UUID_IN_RESULT.exec(result.preview)?.[1];
}

/** Blocks in id order, holes dropped. */
export function presentBlocks(blocks: readonly (BlockSummary | undefined)[]): BlockSummary[] {
  const out: BlockSummary[] = [];
  for (const block of blocks) if (block) out.push(block);
  return out;
}

/**
 * Builds the nested conversations. Agents without a known parent (or with a parent cycle) are
 * roots; agents that only appear in blocks (no meta_init) get a thread without info.
 */
export function buildThreads(
  agents: readonly AgentInfoPayload[],
  blocks: readonly (BlockSummary | undefined)[],
): AgentThread[] {
  const present = presentBlocks(blocks);
  const infoByUuid = new Map(agents.map((a) => [a.uuid, a]));
  const blocksByAgent = new Map<string, BlockSummary[]>();
  for (const block of present) {
    const list = blocksByAgent.get(block.agent);
    if (list) list.push(block);
    else blocksByAgent.set(block.agent, [block]);
  }
  for (const list of blocksByAgent.values()) list.sort((a, b) => a.firstEnvelope - b.firstEnvelope || a.id - b.id);

  const uuids = new Set<string>([...agents.map((a) => a.uuid), ...blocksByAgent.keys()]);
  const firstEnvelope = (uuid: string): number =>
    infoByUuid.get(uuid)?.firstEnvelope ?? blocksByAgent.get(uuid)?.[0]?.firstEnvelope ?? Number.MAX_SAFE_INTEGER;
  /** The parent as sent, when it is another agent of the session. */
  const declaredParent = (uuid: string): string | null => {
    const parent = infoByUuid.get(uuid)?.parent ?? null;
    return parent !== null && parent !== uuid && uuids.has(parent) ? parent : null;
  };
  /**
   * Agents whose chain of parents runs into a cycle: each chain is followed once (memoised),
   * so a stream of thousands of nested sub-agents costs linear time. Such an agent is shown
   * as a root rather than lost.
   */
  const inCycle = new Map<string, boolean>();
  for (const start of uuids) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let verdict = false;
    for (let at = declaredParent(start); ; at = declaredParent(at)) {
      if (at === null) break;
      const known = inCycle.get(at);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      if (onPath.has(at) || at === start) {
        verdict = true;
        break;
      }
      onPath.add(at);
      path.push(at);
    }
    if (!inCycle.has(start)) inCycle.set(start, verdict);
    // Every agent on the way leads where this one does: into the cycle, or up to a root.
    for (const at of path) if (!inCycle.has(at)) inCycle.set(at, verdict);
  }
  const parentOf = (uuid: string): string | null => (inCycle.get(uuid) ? null : declaredParent(uuid));

  const childrenOf = new Map<string, string[]>();
  const roots: string[] = [];
  for (const uuid of uuids) {
    const parent = parentOf(uuid);
    if (parent === null) roots.push(uuid);
    else {
      const list = childrenOf.get(parent);
      if (list) list.push(uuid);
      else childrenOf.set(parent, [uuid]);
    }
  }
  const byFirst = (a: string, b: string): number => firstEnvelope(a) - firstEnvelope(b) || a.localeCompare(b);
  roots.sort(byFirst);
  for (const list of childrenOf.values()) list.sort(byFirst);

  // Threads are made first and filled from an explicit stack: a stream decides how deep
  // sub-agents nest, and a recursive build would overflow on a long enough chain.
  const unfilled: { thread: AgentThread; own: readonly BlockSummary[] }[] = [];
  const makeThread = (uuid: string, depth: number, spawnedBy: number | undefined): AgentThread => {
    const own = blocksByAgent.get(uuid) ?? [];
    const thread: AgentThread = {
      uuid,
      info: infoByUuid.get(uuid),
      depth,
      items: [],
      spawnedBy,
      firstEnvelope: firstEnvelope(uuid),
      liveBlocks: own.filter((b) => b.status === 'open').length,
    };
    unfilled.push({ thread, own });
    return thread;
  };
  const threads = roots.map((uuid) => makeThread(uuid, 0, undefined));
  for (let next = unfilled.pop(); next; next = unfilled.pop()) {
    const { thread, own } = next;
    const placement = placeChildren(own, childrenOf.get(thread.uuid) ?? [], firstEnvelope);
    const childThread = (child: string): ThreadItem => ({
      type: 'agent',
      thread: makeThread(child, thread.depth + 1, placement.spawnedBy.get(child)),
    });
    for (const child of placement.before) thread.items.push(childThread(child));
    for (const block of own) {
      thread.items.push({ type: 'block', block });
      for (const child of placement.after.get(block.id) ?? []) thread.items.push(childThread(child));
    }
  }
  for (const { thread } of walkThreads(threads)) if (thread.depth === MAX_THREAD_NESTING) flattenDescendants(thread);
  return threads;
}

/**
 * How deep threads nest on screen. A stream decides how deep its sub-agents nest; past this,
 * descendants are listed one after another inside the thread at this depth (each keeps its
 * real `depth`), so the page never holds thousands of nested sections.
 */
export const MAX_THREAD_NESTING = 8;

/** Moves every descendant thread of `thread` into its items, depth first, each keeping only its own blocks. */
function flattenDescendants(thread: AgentThread): void {
  const flat: ThreadItem[] = [];
  const pending: ThreadItem[] = [...thread.items].reverse();
  for (let item = pending.pop(); item; item = pending.pop()) {
    flat.push(item);
    if (item.type !== 'agent') continue;
    const inner = item.thread.items;
    item.thread.items = inner.filter((i) => i.type === 'block');
    for (let i = inner.length - 1; i >= 0; i--) if (inner[i]?.type === 'agent') pending.push(inner[i] as ThreadItem);
  }
  thread.items = flat;
}

interface Placement {
  /** Children shown before the parent's first block. */
  before: string[];
  /** Block id → children shown right after it. */
  after: Map<number, string[]>;
  spawnedBy: Map<string, number>;
}

function placeChildren(
  own: readonly BlockSummary[],
  children: readonly string[],
  firstEnvelope: (uuid: string) => number,
): Placement {
  const placement: Placement = { before: [], after: new Map(), spawnedBy: new Map() };
  if (children.length === 0) return placement;
  const put = (child: string, block: number): void => {
    const list = placement.after.get(block);
    if (list) list.push(child);
    else placement.after.set(block, [child]);
  };

  // 1. A spawn result naming the child: the call it answers is the spawn.
  const spawnCalls = own.filter((b) => b.kind === KIND.tool_call && b.name === SPAWN_TOOL);
  const claimed = new Set<number>();
  const unplaced: string[] = [];
  const childSet = new Set(children);
  const callOfChild = new Map<string, number>();
  for (const block of own) {
    const child = spawnedAgentOf(block);
    if (child === undefined || !childSet.has(child) || callOfChild.has(child)) continue;
    const call = block.linkedBlock !== undefined ? spawnCalls.find((c) => c.id === block.linkedBlock) : undefined;
    if (call && !claimed.has(call.id)) {
      claimed.add(call.id);
      callOfChild.set(child, call.id);
    }
  }
  // 2. Otherwise the earliest unclaimed spawn call that started before the child; 3. else by time.
  for (const child of children) {
    let call = callOfChild.get(child);
    if (call === undefined) {
      const start = firstEnvelope(child);
      const candidate = spawnCalls.find((c) => !claimed.has(c.id) && c.firstEnvelope < start);
      if (candidate) {
        claimed.add(candidate.id);
        call = candidate.id;
      }
    }
    if (call !== undefined) {
      placement.spawnedBy.set(child, call);
      put(child, call);
    } else unplaced.push(child);
  }
  for (const child of unplaced) {
    const start = firstEnvelope(child);
    let anchor: BlockSummary | undefined;
    for (const block of own) if (block.firstEnvelope < start) anchor = block;
    if (anchor) put(child, anchor.id);
    else placement.before.push(child);
  }
  // Children of one anchor in the order they started.
  for (const list of placement.after.values()) list.sort((a, b) => firstEnvelope(a) - firstEnvelope(b));
  return placement;
}

function childThreads(thread: AgentThread): AgentThread[] {
  return thread.items.flatMap((i) => (i.type === 'agent' ? [i.thread] : []));
}

interface ThreadVisit {
  thread: AgentThread;
  parent: ThreadVisit | null;
}

/** Every thread, depth first in display order, with the visit of the thread above it (an explicit stack). */
function* walkThreads(threads: readonly AgentThread[]): Generator<ThreadVisit> {
  const stack: ThreadVisit[] = [...threads].reverse().map((thread) => ({ thread, parent: null }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    yield next;
    for (const child of childThreads(next.thread).reverse()) stack.push({ thread: child, parent: next });
  }
}

/** The thread of one agent, wherever it is nested ([] when absent). */
export function findThread(threads: readonly AgentThread[], uuid: string): AgentThread[] {
  for (const { thread } of walkThreads(threads)) if (thread.uuid === uuid) return [thread];
  return [];
}

/** The uuids of the threads from a root down to `uuid`, inclusive ([] when absent). */
export function ancestorsOf(threads: readonly AgentThread[], uuid: string): string[] {
  for (const visit of walkThreads(threads)) {
    if (visit.thread.uuid !== uuid) continue;
    const path: string[] = [];
    for (let at: ThreadVisit | null = visit; at; at = at.parent) path.push(at.thread.uuid);
    return path.reverse();
  }
  return [];
}

export function countLiveBlocks(threads: readonly AgentThread[]): number {
  let n = 0;
  for (const { thread } of walkThreads(threads)) n += thread.liveBlocks;
  return n;
}
