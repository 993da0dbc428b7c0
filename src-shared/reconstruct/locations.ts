import type { DiagnosticLocation } from '../diagnostics/types';
import { NO_EXTRAS, type Envelope } from '../envelope/types';
import type { Block } from './types';

/** How reconstruction's diagnostics name an agent: the unattributed one has an empty uuid. */
export function agentLabel(uuid: string): string {
  return uuid === '' ? 'the unattributed agent ""' : `agent ${uuid}`;
}

/** How reconstruction's diagnostics name a block: kind, tool id if any, block id and agent. */
export function describeBlock(block: Block): string {
  const tool = block.toolId !== undefined ? ` ${block.toolId}` : '';
  return `${block.kind}${tool} block #${block.id} of ${agentLabel(block.agent)}`;
}

/** Where one envelope is, and the block it went to; leg 0 is left out, as everywhere. */
export function envelopeAt(envelope: Envelope, block?: Block): DiagnosticLocation {
  const at: DiagnosticLocation = {
    frame: envelope.frame,
    envelope: envelope.seq,
    byteStart: envelope.byteStart,
    byteEnd: envelope.byteEnd,
  };
  if (envelope.leg !== 0) at.leg = envelope.leg;
  if (block) at.block = block.id;
  return at;
}

/** Where a whole block is: its byte span and its first envelope (end-of-session findings). */
export function blockAt(block: Block): DiagnosticLocation {
  const at: DiagnosticLocation = { byteStart: block.byteStart, byteEnd: block.byteEnd, block: block.id };
  if (block.leg !== 0) at.leg = block.leg;
  const first = block.envelopes[0];
  if (first !== undefined) at.envelope = first;
  return at;
}

/** The replay so far: from its first replayed envelope to the one that confirmed it. */
export function replayAt(replay: Block, firstReplayed: number, envelope: Envelope): DiagnosticLocation {
  const at: DiagnosticLocation = {
    envelope: firstReplayed,
    byteStart: replay.byteStart,
    byteEnd: envelope.byteEnd,
    block: replay.id,
  };
  if (envelope.leg !== 0) at.leg = envelope.leg;
  return at;
}

/** A string field the envelope's dialect carried beside the delta (`id`, `name`, `src`…). */
export function stringExtra(envelope: Envelope, key: string): string | undefined {
  const extras = envelope.extras;
  // Most deltas carry none: the shared empty object is told by identity, not by a lookup that
  // sees every shape of extras.
  if (extras === NO_EXTRAS) return undefined;
  const value = extras[key];
  return typeof value === 'string' ? value : undefined;
}
