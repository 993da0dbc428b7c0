import type { DialectId } from '../dialects/registry';
import type { Frame } from '../sse/types';
import type { ControlKind, Envelope, EnvelopeInit } from './types';
import type { UnifiedEvent } from './unified';

/**
 * How a dialect's envelope gets the pipeline's fields (its number, leg, dialect, offsets and
 * time). Every envelope has the same fields in one order, so that the stages after the
 * dialect see one object shape.
 */

/** The `seq` of an envelope a dialect made in its final shape (unnumberedEnvelope), before the pipeline numbers it. */
const UNNUMBERED = -1;

/**
 * An envelope in the Envelope's own shape, its pipeline fields not set yet: `numberEnvelope`
 * fills them in rather than copying the fields into a new object, one object less per event
 * where events come by the thousand (every provider dialect's envelopes, ProviderEventContext).
 */
export function unnumberedEnvelope(
  frame: number,
  agent: string,
  type: string,
  final: boolean,
  delta: string,
  extras: Record<string, unknown>,
  control: ControlKind | undefined,
  unified: UnifiedEvent | undefined,
): Envelope {
  return {
    frame,
    agent,
    type,
    final,
    delta,
    extras,
    control,
    unified,
    seq: UNNUMBERED,
    leg: 0,
    dialect: '' as DialectId,
    byteStart: 0,
    byteEnd: 0,
    receivedAt: 0,
  };
}

/** The dialect's envelope numbered `seq` in the session, from `frame` (when known) of leg `leg`. */
export function numberEnvelope(
  init: EnvelopeInit,
  seq: number,
  leg: number,
  dialect: DialectId,
  frame: Frame | undefined,
): Envelope {
  if ((init as Partial<Envelope>).seq === UNNUMBERED) {
    // Made in the envelope's own shape (unnumberedEnvelope): numbered in place, not copied.
    const envelope = init as Envelope;
    envelope.seq = seq;
    envelope.leg = leg;
    envelope.dialect = dialect;
    envelope.byteStart = frame?.byteStart ?? 0;
    envelope.byteEnd = frame?.byteEnd ?? 0;
    envelope.receivedAt = frame?.receivedAt ?? 0;
    return envelope;
  }
  // Every field named, in one order. A spread of `init`, whose shape varies by dialect and
  // control kind, runs V8's slow generic object clone and costs more than the rest of this stage.
  return {
    frame: init.frame,
    agent: init.agent,
    type: init.type,
    final: init.final,
    delta: init.delta,
    extras: init.extras,
    control: init.control,
    unified: init.unified,
    seq,
    leg,
    dialect,
    byteStart: frame?.byteStart ?? 0,
    byteEnd: frame?.byteEnd ?? 0,
    receivedAt: frame?.receivedAt ?? 0,
  };
}
