import type { AgentInfo, Block } from '../reconstruct/types';
import type { AgentPair } from './types';

interface AgentNode {
  uuid: string;
  parent: string | null;
}

/** Every agent of a side in order of appearance, including agents only blocks mention. */
export function agentNodes(agents: readonly AgentInfo[], blocks: readonly Block[]): AgentNode[] {
  const nodes: AgentNode[] = [...agents]
    .sort((a, b) => a.firstEnvelope - b.firstEnvelope)
    .map((a) => ({ uuid: a.uuid, parent: a.parent }));
  const known = new Set(nodes.map((n) => n.uuid));
  for (const block of blocks) {
    if (known.has(block.agent)) continue;
    known.add(block.agent);
    nodes.push({ uuid: block.agent, parent: null });
  }
  // A parent that never appeared makes its child a root of this side.
  return nodes.map((n) => (n.parent !== null && known.has(n.parent) ? n : { uuid: n.uuid, parent: null }));
}

/**
 * Pairs the agents of two sides: the same uuid first (the same run in two formats); then by
 * structure — roots in order of appearance, then the children of each matched pair in order
 * (two runs of one scenario have different uuids but the same tree); then what is left, by
 * order. Pairs come in left order, right-only agents last.
 */
export function matchAgents(left: readonly AgentNode[], right: readonly AgentNode[]): AgentPair[] {
  const leftToRight = new Map<string, { right: string; by: AgentPair['by'] }>();
  const rightTaken = new Set<string>();
  const pair = (l: string, r: string, by: AgentPair['by']): void => {
    leftToRight.set(l, { right: r, by });
    rightTaken.add(r);
  };
  const rightUuids = new Set(right.map((n) => n.uuid));
  for (const node of left) if (rightUuids.has(node.uuid)) pair(node.uuid, node.uuid, 'uuid');

  const free = (side: readonly AgentNode[], taken: (uuid: string) => boolean, parent: string | null): AgentNode[] =>
    side.filter((n) => n.parent === parent && !taken(n.uuid));
  const leftTaken = (uuid: string): boolean => leftToRight.has(uuid);
  const zip = (ls: AgentNode[], rs: AgentNode[], by: AgentPair['by']): boolean => {
    const count = Math.min(ls.length, rs.length);
    for (let i = 0; i < count; i++) pair(ls[i]?.uuid ?? '', rs[i]?.uuid ?? '', by);
    return count > 0;
  };

  zip(
    free(left, leftTaken, null),
    free(right, (u) => rightTaken.has(u), null),
    'structure',
  );
  for (let progress = true; progress;) {
    progress = false;
    for (const [l, { right: r }] of [...leftToRight]) {
      if (
        zip(
          free(left, leftTaken, l),
          free(right, (u) => rightTaken.has(u), r),
          'structure',
        )
      )
        progress = true;
    }
  }
  zip(
    left.filter((n) => !leftTaken(n.uuid)),
    right.filter((n) => !rightTaken.has(n.uuid)),
    'order',
  );

  const pairs: AgentPair[] = [];
  for (const node of left) {
    const match = leftToRight.get(node.uuid);
    pairs.push(match ? { left: node.uuid, right: match.right, by: match.by } : { left: node.uuid, by: 'unmatched' });
  }
  for (const node of right) if (!rightTaken.has(node.uuid)) pairs.push({ right: node.uuid, by: 'unmatched' });
  return pairs;
}

/** agent uuid → pair index, per side. */
export function pairIndex(pairs: readonly AgentPair[]): { left: Map<string, number>; right: Map<string, number> } {
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  pairs.forEach((p, index) => {
    if (p.left !== undefined) left.set(p.left, index);
    if (p.right !== undefined) right.set(p.right, index);
  });
  return { left, right };
}

/** The roots of a side: agents without a (seen) parent. */
export function rootAgents(nodes: readonly AgentNode[]): Set<string> {
  return new Set(nodes.filter((n) => n.parent === null).map((n) => n.uuid));
}

export type { AgentNode };
