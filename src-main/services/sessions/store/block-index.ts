import type { BlockChanges, BlockSummary } from '../../../../src-shared/contract/payloads';
import type { AgentInfo, Block } from '../../../../src-shared/reconstruct/types';
import type { BlockContents } from './block-contents';
import type { BlockEnvelopes } from './block-envelopes';
import { UintColumn } from './columns';
import type { EnvelopeTable } from './envelope-table';
import type { LegState } from './leg-state';
import type { PendingToolsState } from './session-store';
import { preview, PREVIEW_CHARS, toBlockSummary } from './session-summary';
import { KIND } from '../../../../src-shared/envelope/vocabulary';
import { awaitsClient } from '../../../../src-shared/reconstruct/payloads';

/**
 * The store's side of the reconstructor's blocks: which block each envelope belongs to, a
 * revision stamp per block (what changed since a batch), the previews of long open blocks, and
 * the blocks that paused a run on frontend tools. Fed by the decoder's onBlock only.
 */
export class BlockIndex {
  /** How many of a block's envelopes already have it as their block (by block id). */
  private readonly mappedEnvelopes = new UintColumn();
  /** Blocks of kind awaiting_frontend_tools, in the order they opened. */
  readonly awaiting: number[] = [];
  /**
   * Previews of open blocks whose content is longer than a preview: the first characters never
   * change once there, and taking them again would flatten the block's whole content string
   * (an appended rope) on every batch, which is quadratic for a long block. A finished block's
   * preview is read from its first deltas instead.
   */
  private readonly previews = new Map<number, string>();
  /** Each block's last revision (by id); 0: not seen yet. */
  private readonly stamps = new UintColumn();
  /** Bumps whenever a block opens or changes. */
  revision = 0;

  constructor(
    private readonly envelopes: EnvelopeTable,
    private readonly contents: BlockContents,
    private readonly lists: BlockEnvelopes,
    /** An envelope's block id was set: its row changed. */
    private readonly touchRow: (seq: number) => void,
  ) {}

  /** A block opened or changed. */
  note(block: Block): void {
    // A block is new until it has a stamp (revisions start at 1).
    if (this.stamps.get(block.id) === 0 && block.kind === KIND.awaiting_frontend_tools) this.awaiting.push(block.id);
    let mapped = this.mappedEnvelopes.get(block.id);
    for (; mapped < block.envelopes.length; mapped++) {
      const seq = block.envelopes[mapped] as number;
      this.contents.count(block, seq);
      if (this.envelopes.block(seq) < 0) {
        this.envelopes.setBlock(seq, block.id);
        this.touchRow(seq);
      }
    }
    this.mappedEnvelopes.set(block.id, mapped);
    // A finished block's preview is read from its first deltas on disk: no need to keep it.
    if (!this.contents.onDisk(block) && this.contents.release(block)) this.previews.delete(block.id);
    // A finished block's envelope list is done growing (but for a late citation, which takes it back).
    this.lists.release(block);
    this.stamps.set(block.id, ++this.revision);
  }

  summary(block: Block): BlockSummary {
    let shown = this.previews.get(block.id);
    const length = this.contents.length(block);
    if (shown === undefined) {
      shown = preview(this.contents.head(block, PREVIEW_CHARS + 1));
      if (length > PREVIEW_CHARS && !this.contents.onDisk(block))
        this.previews.set(block.id, (shown = detached(shown)));
    }
    return toBlockSummary(block, shown, length);
  }

  /** Summaries of the blocks that opened or changed after revision `since`. */
  changes(since: number, blocks: readonly Block[]): BlockChanges {
    const changed: BlockSummary[] = [];
    if (since < this.revision) {
      for (const block of blocks) if (this.stamps.get(block.id) > since) changed.push(this.summary(block));
    }
    return { revision: this.revision, blocks: changed };
  }
}

/**
 * A flat copy of `text` that keeps nothing else alive: a slice keeps the whole string it was
 * cut from (a preview would keep its block's full content), and a message built from parts
 * keeps every part.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/**
 * The frontend tools a paused run waits for: the last awaiting block of the last leg with
 * content, complete and with tools pending; null while a leg is open or when nothing waits.
 */
export function pendingToolsOf(
  legs: readonly LegState[],
  awaiting: readonly number[],
  blocks: readonly Block[],
  agents: readonly AgentInfo[],
): PendingToolsState | null {
  if (legs.at(-1)?.decoder) return null;
  // A continuation that never ran (refused, 4xx, or only an error frame) leaves the run
  // paused where it was: the pending set is the one of the last leg with content.
  let last: LegState | undefined;
  for (let i = legs.length - 1; i >= 0 && !last; i--) {
    const leg = legs[i] as LegState;
    if (leg.kind !== 'tool-results' || leg.contentEnvelopes > 0) last = leg;
  }
  if (!last) return null;
  for (let i = awaiting.length - 1; i >= 0; i--) {
    const block = blocks[awaiting[i] as number];
    if (!block || block.leg !== last.index) continue;
    if (block.status !== 'complete' || !awaitsClient(block)) return null;
    const agentUuid =
      block.agent !== '' ? block.agent : (agents.find((a) => a.parent === null && a.uuid !== '')?.uuid ?? '');
    return { leg: last.index, block, agentUuid };
  }
  return null;
}
