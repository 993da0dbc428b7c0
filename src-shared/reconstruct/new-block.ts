import type { Envelope } from '../envelope/types';
import { detachFlat, detachString } from '../text/detach';
import { withContent } from './block-content';
import { pushEnvelope, withEnvelopeList } from './envelope-list';
import { stringExtra } from './locations';
import type { Block, Citation, ImageRef } from './types';

/** The citations of every block that has none: one frozen list, not an empty array per block. */
export const NO_CITATIONS: readonly Citation[] = Object.freeze([]);
/** The images of every block that has none. */
export const NO_IMAGES: readonly ImageRef[] = Object.freeze([]);

/**
 * Makes a block's fields in the order they always had. Made by a constructor rather than
 * from a literal: V8 keeps the fields of objects a constructor makes inside the object,
 * where a literal of four fields grown to eleven keeps seven in a second array (88 bytes a
 * block). Its prototype is Object's: a block stays a plain object to every consumer.
 */
const BlockFields = function (this: Block, id: number, agent: string, kind: string, envelope: Envelope): void {
  this.id = id;
  this.agent = agent;
  this.kind = kind;
  this.status = 'open';
  withContent(this);
  this.citations = NO_CITATIONS;
  this.images = NO_IMAGES;
  withEnvelopeList(this);
  this.leg = envelope.leg;
  this.byteStart = envelope.byteStart;
  this.byteEnd = envelope.byteEnd;
} as unknown as new (id: number, agent: string, kind: string, envelope: Envelope) => Block;
BlockFields.prototype = Object.prototype;

/**
 * An open, empty block `id` of `kind`, begun by `envelope` (which it does not list yet: see
 * addEnvelope). `agent`: the agent's id as the reconstructor already holds it, so that blocks
 * share one string per agent instead of a copy each (a copy of the envelope's by default).
 */
export function createBlock(id: number, envelope: Envelope, kind: string, agent = detachString(envelope.agent)): Block {
  const block = new BlockFields(id, agent, kind, envelope);
  const toolId = stringExtra(envelope, 'id');
  const name = stringExtra(envelope, 'name');
  // The block outlives its envelope: its own copies, not slices that keep the frame's text alive.
  if (toolId !== undefined) block.toolId = detachFlat(toolId);
  if (name !== undefined) block.name = detachString(name);
  return block;
}

/** Record that `envelope` contributed to `block`; offsets of another leg do not widen the span. */
export function addEnvelope(block: Block, envelope: Envelope): void {
  pushEnvelope(block, envelope.seq);
  if (envelope.leg !== block.leg) return;
  if (envelope.byteStart < block.byteStart) block.byteStart = envelope.byteStart;
  if (envelope.byteEnd > block.byteEnd) block.byteEnd = envelope.byteEnd;
}

/** Attach a citation to the block: its first gives the block a list of its own, the next are appended to it. */
export function addCitation(block: Block, citation: Citation): void {
  if (block.citations === NO_CITATIONS) block.citations = [citation];
  else (block.citations as Citation[]).push(citation);
}

/** Attach an image to the block, as addCitation. */
export function addImage(block: Block, image: ImageRef): void {
  if (block.images === NO_IMAGES) block.images = [image];
  else (block.images as ImageRef[]).push(image);
}
