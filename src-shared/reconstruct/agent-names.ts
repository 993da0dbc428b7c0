/**
 * The names the inspector gives a session's agents, in spawn order (by first envelope): roots
 * are "main" (or "main 2", … when a stream has several); children are numbered under their
 * parent ("sub 1", then "sub 1.1" below it). Agents seen only in rows or blocks (not
 * announced by a meta_init) are passed as `extra` and become roots.
 */

export interface AgentName {
  readonly uuid: string;
  readonly name: string;
  /** 0 for a root. */
  readonly depth: number;
  readonly parent: string | null;
}

export function nameAgents(
  agents: readonly { readonly uuid: string; readonly parent: string | null; readonly firstEnvelope: number }[],
  extra: readonly string[] = [],
): Map<string, AgentName> {
  const names = new Map<string, AgentName>();
  const known = new Set(agents.map((a) => a.uuid));
  const all = [
    ...[...agents].sort((a, b) => a.firstEnvelope - b.firstEnvelope),
    ...extra.filter((uuid) => !known.has(uuid)).map((uuid) => ({ uuid, parent: null, firstEnvelope: Number.MAX_SAFE_INTEGER })),
  ];
  const childCount = new Map<string, number>();
  let roots = 0;
  for (const agent of all) {
    if (names.has(agent.uuid)) continue;
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
