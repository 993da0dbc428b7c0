import type { Envelope } from '../envelope/types';
import { detachString } from '../text/detach';
import { withContent } from './block-content';
import { stringExtra } from './locations';
import type { Block, BlockStatus } from './types';

/** An open, empty block `id` of `kind`, begun by `envelope` (which it does not list yet: see addEnvelope). */
export function createBlock(id: number, envelope: Envelope, kind: string): Block {
  // Fields in the order they always had; `content` may move to a store once the block is done.
  const status: BlockStatus = 'open';
  const block: Block = Object.assign(withContent({ id, agent: detachString(envelope.agent), kind, status }), {
    citations: [],
    images: [],
    envelopes: [],
    leg: envelope.leg,
    byteStart: envelope.byteStart,
    byteEnd: envelope.byteEnd,
  });
  const toolId = stringExtra(envelope, 'id');
  const name = stringExtra(envelope, 'name');
  // The block outlives its envelope: its own copies, not slices that keep the frame's text alive.
  if (toolId !== undefined) block.toolId = detachString(toolId);
  if (name !== undefined) block.name = detachString(name);
  return block;
}

/** Record that `envelope` contributed to `block`; offsets of another leg do not widen the span. */
export function addEnvelope(block: Block, envelope: Envelope): void {
  block.envelopes.push(envelope.seq);
  if (envelope.leg !== block.leg) return;
  if (envelope.byteStart < block.byteStart) block.byteStart = envelope.byteStart;
  if (envelope.byteEnd > block.byteEnd) block.byteEnd = envelope.byteEnd;
}
