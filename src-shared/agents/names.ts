/** The agent facts naming needs (AgentInfo and its contract payload both have them). */
export interface NamedAgentInput {
  readonly uuid: string;
  readonly parent: string | null;
  readonly firstEnvelope: number;
}

export interface AgentName {
  readonly uuid: string;
  /** "main", "sub 1", "sub 1.2" … */
  readonly name: string;
  readonly depth: number;
  /** The parent's uuid when the parent is among the named agents. */
  readonly parent: string | null;
}

/**
 * Names for a session's agents as the UI shows them, in spawn order (by first envelope):
 * roots are "main" (or "main 2", … when a stream has several); children are numbered under
 * their parent. Agents seen only in envelopes (no meta_init) are passed as `extra` and become
 * roots. The timeline, the filter language and `check` all name agents this way.
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
  let roots = 0;
  for (const agent of all) {
    const parent = agent.parent !== null ? names.get(agent.parent) : undefined;
    let name: string;
    if (parent) {
      const n = (childCount.get(parent.uuid) ?? 0) + 1;
      childCount.set(parent.uuid, n);
      name = parent.depth === 0 ? `sub ${n}` : `${parent.name}.${n}`;
    } else {
      roots++;
      name = roots === 1 ? 'main' : `main ${roots}`;
    }
    names.set(agent.uuid, { uuid: agent.uuid, name, depth: parent ? parent.depth + 1 : 0, parent: parent ? parent.uuid : null });
  }
  return names;
}
