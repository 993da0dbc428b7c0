import type { Envelope } from '../envelope/types';
import { KIND } from '../envelope/vocabulary';
import type { Block } from '../reconstruct/types';
import type { Explanation, SideProfile } from './types';

/**
 * Differences at block level that are properties of the formats, not defects: one format
 * loses or adds something by construction (docs/format-equivalence.md). A row so explained
 * keeps its status (changed, only left, only right) and is not counted as a difference.
 */
export const INHERENT = {
  'unattributed-sub-agents': {
    label: 'xml/raw cannot attribute sub-agents',
    description:
      "xml/raw items carry no agent id, so concurrent sub-agents' items interleave into one sequence and cannot be split per agent (docs/protocols/upstream-protocol.md §7 #30)",
  },
  'xml-unescaped-cr': {
    label: 'xml loses text after a CR',
    description:
      'the xml formatter does not escape CR: the rest of a text/thinking delta after a CR becomes an ignored SSE line (docs/protocols/upstream-protocol.md §5 #24a)',
  },
  'resume-meta-init': {
    label: 'agent_base meta_init on resume',
    description:
      'agent_base sends meta_init again at the start of a continuation; the legacy server does not (docs/protocols/upstream-protocol.md §3 #14)',
  },
  'resume-frontend-tool-result': {
    label: 'no frontend tool_result in agent_base',
    description:
      'on resume the legacy server streams a tool_result per frontend result; agent_base streams none (docs/protocols/upstream-protocol.md §8 #34)',
  },
  'agent-base-no-meta-files': {
    label: 'no meta_files in agent_base',
    description:
      'the agent_base server sends no meta_files envelope where the legacy server sends one (example_1: one meta_files block in json/xml/raw, none in agent_base.json)',
  },
} as const satisfies Record<string, Explanation>;

export type InherentId = keyof typeof INHERENT;

export interface SideContext {
  profile: SideProfile;
  /** Envelope by seq. */
  envelopes: ReadonlyMap<number, Envelope>;
  /** Block kinds present on this side, and the ids of its tool calls. */
  kinds: ReadonlySet<string>;
  toolCallIds: ReadonlySet<string>;
  /** Agents with no parent on this side. */
  roots: ReadonlySet<string>;
}

export interface InherentContext {
  left: SideContext;
  right: SideContext;
  flattened: boolean;
}

type Side = 'left' | 'right';

const other = (side: Side): Side => (side === 'left' ? 'right' : 'left');

/** Why a block present on one side only is expected, if it is. */
export function explainUnmatched(block: Block, side: Side, context: InherentContext): InherentId | undefined {
  const own = context[side];
  const theirs = context[other(side)];
  if (context.flattened && involvesSubAgent(block, own)) return 'unattributed-sub-agents';
  if (own.profile.generation === 'agent_base' && theirs.profile.generation === 'legacy') {
    if (block.kind === KIND.meta_init && !theirs.kinds.has(KIND.meta_init)) return 'resume-meta-init';
  }
  if (own.profile.generation === 'legacy' && theirs.profile.generation === 'agent_base') {
    if (block.kind === KIND.meta_files) return 'agent-base-no-meta-files';
    // A result whose call is not in this session answers a frontend tool of an earlier leg.
    if (block.kind === KIND.tool_result && block.toolId !== undefined && !own.toolCallIds.has(block.toolId))
      return 'resume-frontend-tool-result';
  }
  return undefined;
}

/** Why two aligned blocks differ, if the formats explain it. */
export function explainChanged(left: Block, right: Block, context: InherentContext): InherentId | undefined {
  if (context.flattened && pairInvolvesSubAgent(left, right, context)) return 'unattributed-sub-agents';
  if ((left.kind === KIND.text || left.kind === KIND.thinking) && left.kind === right.kind) {
    if (context.right.profile.xmlText && !context.left.profile.xmlText && lostAfterCr(left, right, context.left))
      return 'xml-unescaped-cr';
    if (context.left.profile.xmlText && !context.right.profile.xmlText && lostAfterCr(right, left, context.right))
      return 'xml-unescaped-cr';
  }
  return undefined;
}

/**
 * On a side that attributes agents, the block belongs to a sub-agent; on a side that cannot
 * (xml/raw), any block may hold interleaved sub-agent items.
 */
function involvesSubAgent(block: Block, side: SideContext): boolean {
  return !attributes(side) || !side.roots.has(block.agent);
}

/**
 * An aligned pair differs because of attribution when a side that attributes agents says the
 * block is a sub-agent's, or when neither side can tell. A root block on an attributing side
 * must match: the parent's own items do not interleave with anything.
 */
function pairInvolvesSubAgent(left: Block, right: Block, context: InherentContext): boolean {
  const l = attributes(context.left);
  const r = attributes(context.right);
  if (!l && !r) return true;
  return (l && !context.left.roots.has(left.agent)) || (r && !context.right.roots.has(right.agent));
}

function attributes(side: SideContext): boolean {
  return !side.profile.xmlItems;
}

/**
 * The xml text equals the other side's text with every delta cut at its first CR (what an SSE
 * reader keeps of an xml delta holding a raw CR). `full` is the block from the side that
 * escapes CR; its deltas are the API's deltas, which xml forwards one per event too.
 */
function lostAfterCr(full: Block, xml: Block, side: SideContext): boolean {
  if (!full.content.includes('\r')) return false;
  let expected = '';
  for (const seq of full.envelopes) {
    const delta = side.envelopes.get(seq)?.delta ?? '';
    const cr = delta.indexOf('\r');
    expected += cr === -1 ? delta : delta.slice(0, cr);
  }
  return expected === xml.content;
}
