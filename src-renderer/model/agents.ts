import type { AgentInfoPayload } from '../../src-shared/contract';

/** How one agent is shown: a colour, a short name, and where it sits in the spawn tree. */
export interface AgentLabel {
  readonly uuid: string;
  /** "main", "sub 1", "sub 1.2" … */
  readonly name: string;
  /** The first characters of the uuid, to tell agents apart in lists and tooltips. */
  readonly shortId: string;
  readonly colour: string;
  readonly depth: number;
  readonly parent: string | null;
  readonly model?: string;
}

/**
 * Colours readable on both themes, ordered so that neighbours differ in hue. The first one
 * is the main agent's.
 */
export const AGENT_COLOURS = ['#4e8cff', '#e5a00d', '#2fb67c', '#d9534f', '#a36bf2', '#17a2b8', '#e0669e', '#8c9a2b', '#ff7f50', '#6f86a6'] as const;

/**
 * Labels for a session's agents in spawn order (by first envelope). Roots are "main" (or
 * "main 2", … when a stream has several); children are numbered under their parent. Agents
 * seen only in rows (not announced by a meta_init) are passed as `extra` and become roots.
 */
export function labelAgents(agents: readonly AgentInfoPayload[], extra: readonly string[] = []): Map<string, AgentLabel> {
  const labels = new Map<string, AgentLabel>();
  const known = new Set(agents.map((a) => a.uuid));
  const all: AgentInfoPayload[] = [
    ...[...agents].sort((a, b) => a.firstEnvelope - b.firstEnvelope),
    ...extra.filter((uuid) => !known.has(uuid)).map((uuid) => ({ uuid, parent: null, firstEnvelope: Number.MAX_SAFE_INTEGER })),
  ];
  const childCount = new Map<string, number>();
  let roots = 0;
  for (const agent of all) {
    const parent = agent.parent !== null && labels.has(agent.parent) ? labels.get(agent.parent)! : null;
    let name: string;
    if (parent) {
      const n = (childCount.get(parent.uuid) ?? 0) + 1;
      childCount.set(parent.uuid, n);
      name = parent.depth === 0 ? `sub ${n}` : `${parent.name}.${n}`;
    } else {
      roots++;
      name = roots === 1 ? 'main' : `main ${roots}`;
    }
    labels.set(agent.uuid, {
      uuid: agent.uuid,
      name,
      shortId: shortId(agent.uuid),
      colour: AGENT_COLOURS[labels.size % AGENT_COLOURS.length]!,
      depth: parent ? parent.depth + 1 : 0,
      parent: parent ? parent.uuid : null,
      ...(agent.model !== undefined ? { model: agent.model } : {}),
    });
  }
  return labels;
}

/** Agents in tree order (each parent followed by its children), for filters and lanes. */
export function agentTreeOrder(labels: ReadonlyMap<string, AgentLabel>): AgentLabel[] {
  const children = new Map<string | null, AgentLabel[]>();
  for (const label of labels.values()) {
    const list = children.get(label.parent) ?? [];
    list.push(label);
    children.set(label.parent, list);
  }
  const ordered: AgentLabel[] = [];
  // Depth first with an explicit stack: a stream decides how deep sub-agents nest.
  const stack = [...(children.get(null) ?? [])].reverse();
  const seen = new Set<string>();
  for (let label = stack.pop(); label; label = stack.pop()) {
    ordered.push(label);
    if (seen.has(label.uuid)) continue;
    seen.add(label.uuid);
    for (const child of [...(children.get(label.uuid) ?? [])].reverse()) stack.push(child);
  }
  return ordered;
}

export function shortId(uuid: string): string {
  if (uuid === '') return '(none)';
  return uuid.length > 8 ? uuid.slice(0, 8) : uuid;
}

/** A label for an agent uuid that has none (before the agents list arrives). */
export function fallbackLabel(uuid: string): AgentLabel {
  return { uuid, name: shortId(uuid), shortId: shortId(uuid), colour: '#888888', depth: 0, parent: null };
}
