/** The agent facts naming needs (AgentInfo and its contract payload both have them). */
export interface NamedAgentInput {
  readonly uuid: string;
  readonly parent: string | null;
  readonly firstEnvelope: number;
}

export interface AgentName {
  readonly uuid: string;
  /** "main", "sub 1", "sub 1.2", "sub 1.2.3", then "sub d4#1" … (short at any depth) */
  readonly name: string;
  readonly depth: number;
  /** How far views indent the agent: its depth, up to MAX_INDENT (a stream decides how deep agents nest). */
  readonly indent: number;
  /** The parent's uuid when the parent is among the named agents. */
  readonly parent: string | null;
}

/**
 * What rows of no agent are called: envelopes without an agent field, and events that did not
 * decode and name no agent in their bytes. They are no agent of the run: never a root "main 2".
 */
export const UNATTRIBUTED = 'unattributed';

/**
 * How many agents a session's blocks belong to, as the Blocks view, the diff and `diff` say it:
 * "2 agents", and "unattributed" when every block names no agent (a provider stream): "0
 * agents" would say the session has none of what it plainly has, its blocks. `count` formats
 * the number as the caller shows numbers.
 */
export function agentsPhrase(agents: number, unattributed: boolean, count: (n: number) => string = String): string {
  if (agents === 0 && unattributed) return UNATTRIBUTED;
  return `${count(agents)} ${agents === 1 ? 'agent' : 'agents'}`;
}

/** Depths named by their path of child numbers ("sub 1.2.3"); deeper agents are named by depth and index. */
export const MAX_PATH_DEPTH = 3;

/** The deepest indentation a view gives an agent; deeper agents line up with it, their names say how deep. */
export const MAX_INDENT = 8;

/**
 * Names for a session's agents as the UI shows them, in spawn order (by first envelope):
 * roots are "main" (or "main 2", … when a stream has several); children are numbered under
 * their parent ("sub 1", "sub 1.2", "sub 1.2.3"). Past MAX_PATH_DEPTH a path would grow with
 * the nesting, which a stream decides (a thousand nested agents would each carry a name of
 * thousands of characters): an agent there is "sub dDEPTH#N", the Nth agent to start at that
 * depth. Agents seen only in envelopes (no meta_init) are passed as `extra` and become roots.
 * The empty uuid is no agent: it is named UNATTRIBUTED and counts as no root.
 * The timeline, the filter language and `check` all name agents this way.
 */
export function nameAgents(agents: readonly NamedAgentInput[], extra: readonly string[] = []): Map<string, AgentName> {
  const names = new Map<string, AgentName>();
  // `extra` may name an agent once per envelope: a set keeps this linear.
  const unannounced = new Set(extra);
  for (const agent of agents) unannounced.delete(agent.uuid);
  const all: NamedAgentInput[] = [
    ...[...agents].sort((a, b) => a.firstEnvelope - b.firstEnvelope),
    ...[...unannounced].map((uuid) => ({ uuid, parent: null, firstEnvelope: Number.MAX_SAFE_INTEGER })),
  ];
  const childCount = new Map<string, number>();
  /** Agents named so far per depth past MAX_PATH_DEPTH. */
  const atDepth = new Map<number, number>();
  let roots = 0;
  for (const agent of all) {
    const parent = agent.parent !== null ? names.get(agent.parent) : undefined;
    const depth = parent ? parent.depth + 1 : 0;
    let name: string;
    if (agent.uuid === '') {
      name = UNATTRIBUTED;
    } else if (!parent) {
      roots++;
      name = roots === 1 ? 'main' : `main ${roots}`;
    } else if (depth > MAX_PATH_DEPTH) {
      const n = (atDepth.get(depth) ?? 0) + 1;
      atDepth.set(depth, n);
      name = `sub d${depth}#${n}`;
    } else {
      const n = (childCount.get(parent.uuid) ?? 0) + 1;
      childCount.set(parent.uuid, n);
      name = parent.depth === 0 ? `sub ${n}` : `${parent.name}.${n}`;
    }
    names.set(agent.uuid, {
      uuid: agent.uuid,
      name,
      depth,
      indent: Math.min(depth, MAX_INDENT),
      parent: parent ? parent.uuid : null,
    });
  }
  return names;
}
