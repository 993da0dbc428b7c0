import type { Envelope } from '../envelope/types';
import { KIND } from '../envelope/vocabulary';
import type { Block } from '../reconstruct/types';
import { agentNodes, matchAgents, pairIndex, rootAgents } from './agents';
import { alignKeys, type Aligned } from './align';
import { compareBlocks, describe, type CompareContext } from './compare';
import { summariseEnvelopes } from './envelopes';
import {
  explainChanged,
  explainUnmatched,
  INHERENT,
  type InherentContext,
  type InherentId,
  type SideContext,
} from './inherent';
import type { NormalisationId } from './normalisations';
import { blocksInOrder, profileSide } from './profile';
import { runPairing } from './runs';
import type { DiffCounts, DiffInput, DiffOptions, DiffRow, RowSide, SessionDiff, SideProfile } from './types';

/**
 * Block-level alignment of two sessions (typically one run in two wire formats): agents are
 * paired, then each pair's blocks are aligned by kind and tool id (or name) and compared with the
 * normalisations of NORMALISATIONS; differences the formats make by construction are marked
 * with an INHERENT explanation. Envelope-level differences are summarised apart.
 */
/** The agent threads a side's blocks fall into: its agents, and the unattributed blocks as one more (as they were counted before they were told apart). */
const agentsAndUnattributed = (profile: SideProfile): number => profile.agents + (profile.unattributed ? 1 : 0);

export function diffSessions(left: DiffInput, right: DiffInput, options: DiffOptions = {}): SessionDiff {
  const leftProfile = profileSide(left, options.dialects);
  const rightProfile = profileSide(right, options.dialects);
  const leftNodes = agentNodes(left.agents, left.blocks);
  const rightNodes = agentNodes(right.agents, right.blocks);
  const agents = matchAgents(leftNodes, rightNodes);
  const pairOf = pairIndex(agents);
  const flattened =
    options.flattenAgents ??
    ((!leftProfile.attributesAgents || !rightProfile.attributesAgents) &&
      (agentsAndUnattributed(leftProfile) > 1 || agentsAndUnattributed(rightProfile) > 1));

  const side = (input: DiffInput, profile: SideContext['profile'], nodes: typeof leftNodes): SideContext => ({
    profile,
    envelopes: new Map<number, Envelope>(input.envelopes.map((e) => [e.seq, e])),
    kinds: new Set(input.blocks.map((b) => b.kind)),
    toolCallIds: new Set(
      input.blocks.flatMap((b) => (b.kind === KIND.tool_call && b.toolId !== undefined ? [b.toolId] : [])),
    ),
    roots: rootAgents(nodes),
  });
  const context: RowContext = {
    compare: { left: leftProfile, right: rightProfile, runs: runPairing(agents) },
    inherent: { left: side(left, leftProfile, leftNodes), right: side(right, rightProfile, rightNodes), flattened },
    pairOf,
  };

  const rows: DiffRow[] = [];
  if (flattened) {
    for (const row of alignBlocks(blocksInOrder(left.blocks), blocksInOrder(right.blocks), context)) rows.push(row);
  } else {
    const byAgent = (blocks: readonly Block[]): Map<string, Block[]> => {
      const map = new Map<string, Block[]>();
      for (const block of blocksInOrder(blocks)) {
        const list = map.get(block.agent);
        if (list) list.push(block);
        else map.set(block.agent, [block]);
      }
      return map;
    };
    const leftBlocks = byAgent(left.blocks);
    const rightBlocks = byAgent(right.blocks);
    for (const pair of agents) {
      const l = pair.left !== undefined ? (leftBlocks.get(pair.left) ?? []) : [];
      const r = pair.right !== undefined ? (rightBlocks.get(pair.right) ?? []) : [];
      for (const row of alignBlocks(l, r, context)) rows.push(row);
    }
  }

  return {
    left: leftProfile,
    right: rightProfile,
    agents,
    flattened,
    rows,
    counts: countRows(rows),
    envelopes: summariseEnvelopes(left, right, pairOf, agents.length),
  };
}

interface RowContext {
  compare: CompareContext;
  inherent: InherentContext;
  pairOf: { left: ReadonlyMap<string, number>; right: ReadonlyMap<string, number> };
}

/**
 * Blocks align on kind plus tool id (the same run in two formats shares ids) or, for blocks
 * without one, kind plus name. Two runs have different tool ids; pairing inside gaps by kind
 * still lines their tool blocks up, as changed rows.
 */
function signature(block: Block): string {
  return block.toolId !== undefined
    ? `${block.kind}\u0000id\u0000${block.toolId}`
    : `${block.kind}\u0000name\u0000${block.name ?? ''}`;
}

interface AlignedBlock extends Aligned {
  moved?: true;
}

/**
 * Aligns two block lists: the longest common subsequence of signatures; then a tool block
 * still unpaired is matched to the unpaired block with its kind and tool id anywhere on the
 * other side (results stream in completion order); then, inside each gap, blocks of the same
 * kind are paired in order.
 */
function alignBlocks(left: readonly Block[], right: readonly Block[], context: RowContext): DiffRow[] {
  const aligned = pairInsideGaps(
    pairMovedTools(alignKeys(left.map(signature), right.map(signature)), left, right),
    left,
    right,
  );
  const rows: DiffRow[] = [];
  for (const item of aligned) {
    const l = item.left !== undefined ? left[item.left] : undefined;
    const r = item.right !== undefined ? right[item.right] : undefined;
    if (l && r) rows.push(matchedRow(l, r, context, item.moved === true));
    else if (l) rows.push(unmatchedRow(l, 'left', context));
    else if (r) rows.push(unmatchedRow(r, 'right', context));
  }
  return rows;
}

/** Pairs unmatched tool blocks with the same kind and tool id; the pair takes the left block's place. */
function pairMovedTools(rows: readonly Aligned[], left: readonly Block[], right: readonly Block[]): AlignedBlock[] {
  const key = (b: Block | undefined): string | undefined =>
    b?.toolId !== undefined ? `${b.kind}\u0000${b.toolId}` : undefined;
  const waiting = new Map<string, number[]>();
  for (const row of rows) {
    if (row.left !== undefined || row.right === undefined) continue;
    const k = key(right[row.right]);
    if (k === undefined) continue;
    const list = waiting.get(k);
    if (list) list.push(row.right);
    else waiting.set(k, [row.right]);
  }
  const movedRight = new Set<number>();
  const out: AlignedBlock[] = [];
  for (const row of rows) {
    if (row.left !== undefined && row.right === undefined) {
      const k = key(left[row.left]);
      const partner = k !== undefined ? waiting.get(k)?.shift() : undefined;
      if (partner !== undefined) {
        movedRight.add(partner);
        out.push({ left: row.left, right: partner, moved: true });
        continue;
      }
    }
    out.push(row);
  }
  return out.filter((row) => row.left !== undefined || row.right === undefined || !movedRight.has(row.right));
}

/** Within each run of unmatched rows, pair left and right blocks of the same kind, in order. */
function pairInsideGaps(
  rows: readonly AlignedBlock[],
  left: readonly Block[],
  right: readonly Block[],
): AlignedBlock[] {
  const out: AlignedBlock[] = [];
  let gapLeft: number[] = [];
  let gapRight: number[] = [];
  const flush = (): void => {
    const kinds = (ids: number[], blocks: readonly Block[]): string[] => ids.map((i) => blocks[i]?.kind ?? '');
    for (const a of alignKeys(kinds(gapLeft, left), kinds(gapRight, right))) {
      const item: AlignedBlock = {};
      if (a.left !== undefined) item.left = gapLeft[a.left];
      if (a.right !== undefined) item.right = gapRight[a.right];
      out.push(item);
    }
    gapLeft = [];
    gapRight = [];
  };
  for (const row of rows) {
    if (row.left !== undefined && row.right !== undefined) {
      flush();
      out.push(row);
    } else if (row.left !== undefined) gapLeft.push(row.left);
    else if (row.right !== undefined) gapRight.push(row.right);
  }
  flush();
  return out;
}

function rowSide(block: Block, text: string): RowSide {
  return { blockId: block.id, agent: block.agent, text };
}

function matchedRow(l: Block, r: Block, context: RowContext, moved: boolean): DiffRow {
  const comparison = compareBlocks(l, r, context.compare);
  const normalisations: NormalisationId[] = [...comparison.normalisations];
  const leftPair = context.pairOf.left.get(l.agent) ?? -1;
  const rightPair = context.pairOf.right.get(r.agent) ?? -1;
  if (context.inherent.flattened && leftPair !== rightPair) normalisations.push('agent-attribution');
  if (moved) normalisations.push('tool-order');
  const row: DiffRow = {
    status: comparison.equal ? 'equal' : 'changed',
    pair: leftPair >= 0 ? leftPair : rightPair,
    kind: l.kind,
    left: rowSide(l, comparison.leftText),
    right: rowSide(r, comparison.rightText),
    reason: describe(comparison.equal, comparison.differences, normalisations),
    normalisations,
  };
  copyLabels(row, l, r);
  if (!comparison.equal) {
    const inherent = explainChanged(l, r, context.inherent);
    if (inherent) explain(row, inherent);
  }
  return row;
}

function unmatchedRow(block: Block, side: 'left' | 'right', context: RowContext): DiffRow {
  // A block without a partner is shown as sent: no uuid of the other run is put into it.
  const text = compareBlocks(block, block, { ...context.compare, runs: null }).leftText;
  const row: DiffRow = {
    status: side === 'left' ? 'only-left' : 'only-right',
    pair: context.pairOf[side].get(block.agent) ?? -1,
    kind: block.kind,
    [side]: rowSide(block, text),
    reason: `only in ${side}`,
    normalisations: [],
  };
  copyLabels(row, side === 'left' ? block : undefined, side === 'right' ? block : undefined);
  const inherent = explainUnmatched(block, side, context.inherent);
  if (inherent) explain(row, inherent);
  return row;
}

function copyLabels(row: DiffRow, l: Block | undefined, r: Block | undefined): void {
  const name = l?.name ?? r?.name;
  const toolId = l?.toolId ?? r?.toolId;
  if (name !== undefined) row.name = name;
  if (toolId !== undefined) row.toolId = toolId;
}

function explain(row: DiffRow, inherent: InherentId): void {
  row.inherent = inherent;
  row.reason = `${row.reason} (inherent: ${INHERENT[inherent].label})`;
}

export function countRows(rows: readonly DiffRow[]): DiffCounts {
  const counts: DiffCounts = {
    equal: 0,
    changed: 0,
    onlyLeft: 0,
    onlyRight: 0,
    inherent: 0,
    differences: 0,
    normalised: 0,
  };
  for (const row of rows) {
    if (row.status === 'equal') {
      counts.equal++;
      if (row.normalisations.length > 0) counts.normalised++;
      continue;
    }
    if (row.status === 'changed') counts.changed++;
    else if (row.status === 'only-left') counts.onlyLeft++;
    else counts.onlyRight++;
    if (row.inherent) counts.inherent++;
    else counts.differences++;
  }
  return counts;
}
