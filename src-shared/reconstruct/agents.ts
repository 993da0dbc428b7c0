import type { DiagnosticLocation } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import { stringifyJson } from '../json/tree';
import { detachString } from '../text/detach';
import type { ReplayDetector, ReplayMark } from './replay-detector';
import { HELD_IDLE_AGENTS, type Retention } from './retention';
import type { AgentInfo, Block } from './types';

/** Where a streamed block's replay began: enough to split the block there (block.restarted). */
export interface ReplayPoint extends ReplayMark {
  byteStart: number;
  byteEnd: number;
}

/** A block that still accepts envelopes, with the state only an open block needs. */
export interface OpenBlock {
  block: Block;
  replay?: ReplayDetector<ReplayPoint>;
  /** Where a block of another type began while this streamed block was open (JSON envelopes). */
  interruptedAt?: Interruption;
}

export interface Interruption {
  envelope: number;
  type: string;
  at: DiagnosticLocation;
}

export interface AgentState {
  info: AgentInfo;
  /** The open block per kind: the "(agent, type)" tracker of docs/protocols/json-envelopes.md. */
  open: Map<string, OpenBlock>;
  /** The block per kind that completed last (block.content-after-final). */
  lastCompleted: Map<string, Block>;
  /** The text block citations attach to. */
  lastText?: Block;
  /** Leg in which this agent last sent content, -1 before any (stream.meta-init-not-first). */
  contentLeg: number;
  /** `open` retention: when the agent was last active (a count of switches between agents). */
  active: number;
}

/** The open block of `kind`, if it belongs to the envelope's leg: a new response never continues an old one. */
export function openBlockOf(state: AgentState, kind: string, envelope: Envelope): OpenBlock | undefined {
  const open = state.open.get(kind);
  if (open && open.block.leg !== envelope.leg) {
    // Left open by its own leg; it stays 'open' and end() reports it.
    state.open.delete(kind);
    return undefined;
  }
  return open;
}

/** The agents of a session: their state, their meta_init details, and which one is the root. */
export interface Agents {
  /** The state of the envelope's agent, made (and announced) the first time the agent is seen. */
  stateOf(envelope: Envelope): AgentState;
  /** Take the parent, model, format and query of a completed meta_init; announce what changed. */
  applyMetaInit(state: AgentState, block: Block, meta: unknown): void;
  /** The agents held (all of them, unless retention is `open`), in the order first seen. */
  list(): readonly AgentInfo[];
  /** Agents seen, held or not (an agent let go that comes back counts again). */
  readonly seen: number;
  /** The first agent seen that has no parent, among those held (the root is never let go). */
  rootAgent(): string | undefined;
}

export function createAgents(retention: Retention, onAgent: (agent: AgentInfo) => void): Agents {
  /**
   * The agents held, first seen first; in `open` retention, once more are held than may stay
   * idle, least recently active first (below).
   */
  let agentStates = new Map<string, AgentState>();
  /** Every agent in the order first seen (`all` retention only: `open` counts them). */
  const agentList: AgentInfo[] | undefined = retention === 'all' ? [] : undefined;
  let agentsSeen = 0;
  /** The root agent (rootAgent()), once looked for; reset when it may have changed. */
  let root: { uuid: string | undefined } | undefined;
  let lastActive: AgentState | undefined;
  /** Switches between agents: each state's `active` is the one it was last active at. */
  let switches = 0;
  /**
   * Whether `agentStates` is kept in order of activity, each agent moved to the end when it
   * becomes active. Only letting idle agents go needs that order, and only once more than
   * HELD_IDLE_AGENTS agents are held: until then each switch only stamps `active`, and the
   * order is made from the stamps once, when first needed (a Map's delete and set on every
   * switch between a few interleaved agents cost 8–9 % of a counting decode's main thread:
   * docs/performance.md, "Stop 44").
   */
  let inActivityOrder = false;

  function stateOf(envelope: Envelope): AgentState {
    let state = agentStates.get(envelope.agent);
    if (!state) {
      const info: AgentInfo = { uuid: detachString(envelope.agent), parent: null, firstEnvelope: envelope.seq };
      state = { info, open: new Map(), lastCompleted: new Map(), contentLeg: -1, active: ++switches };
      agentStates.set(envelope.agent, state);
      agentsSeen++;
      agentList?.push(info);
      if (root && root.uuid === undefined && info.uuid !== '') root = { uuid: info.uuid };
      if (retention === 'open') letIdleAgentGo();
      onAgent(info);
    } else if (retention === 'open' && state !== lastActive) {
      state.active = ++switches;
      if (inActivityOrder) {
        // Most recently active last: the idle agents let go are the ones not heard from longest.
        agentStates.delete(envelope.agent);
        agentStates.set(envelope.agent, state);
      }
    }
    lastActive = state;
    return state;
  }

  /**
   * `open` retention: past HELD_IDLE_AGENTS agents, the least recently active one without an
   * open block goes (never the root). Agents with open blocks that are passed over move to
   * the back, so each new agent looks at a few entries only.
   */
  function letIdleAgentGo(): void {
    if (agentStates.size <= HELD_IDLE_AGENTS) return;
    if (!inActivityOrder) {
      agentStates = new Map([...agentStates].sort(([, a], [, b]) => a.active - b.active));
      inActivityOrder = true;
    }
    const keep = rootAgent();
    for (let looked = 0; looked < 8; looked++) {
      const oldest = agentStates.entries().next();
      if (oldest.done) return;
      const [uuid, state] = oldest.value;
      agentStates.delete(uuid);
      if (state.open.size === 0 && uuid !== keep) return;
      agentStates.set(uuid, state);
    }
  }

  function applyMetaInit(state: AgentState, block: Block, meta: unknown): void {
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return;
    const fields = meta as Record<string, unknown>;
    const info = state.info;
    const before = [info.parent, info.model, info.format, info.userQuery, info.metaInitEnvelope];
    const parent = fields['parent_agent_uuid'];
    // Upstream writes "unknown" when a sub-agent's parent was never set.
    if (typeof parent === 'string' && parent !== '' && parent !== 'unknown' && parent !== info.uuid) {
      info.parent = parent;
      if (root?.uuid === info.uuid) root = undefined;
    }
    if (typeof fields['model'] === 'string') info.model = fields['model'];
    if (typeof fields['format'] === 'string') info.format = fields['format'];
    const query = fields['user_query'];
    if (query !== undefined) info.userQuery = typeof query === 'string' ? query : (stringifyJson(query) ?? '');
    info.metaInitEnvelope ??= block.envelopes[0];
    // A run that announces its agents again unchanged (every leg of a long recording) is not news.
    const after = [info.parent, info.model, info.format, info.userQuery, info.metaInitEnvelope];
    if (after.some((value, i) => value !== before[i])) onAgent(info);
  }

  function rootAgent(): string | undefined {
    if (!root) {
      let first: AgentInfo | undefined;
      for (const { info } of agentStates.values()) {
        if (info.parent === null && info.uuid !== '' && (!first || info.firstEnvelope < first.firstEnvelope))
          first = info;
      }
      root = { uuid: first?.uuid };
    }
    return root.uuid;
  }

  return {
    stateOf,
    applyMetaInit,
    list: () =>
      agentList ??
      [...agentStates.values()].map((state) => state.info).sort((a, b) => a.firstEnvelope - b.firstEnvelope),
    get seen() {
      return agentsSeen;
    },
    rootAgent,
  };
}
