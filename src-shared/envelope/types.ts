import type { DialectId } from '../dialects/registry';
import type { Frame } from '../sse/types';
import type { UnifiedEvent } from './unified';

/** Type of the control envelope that carries an event its dialect could not decode. */
export const UNDECODED_TYPE = 'undecoded';

/**
 * Control envelopes mark things that are not content of the agent vocabulary but that a
 * user must see in the timeline: the `[DONE]` terminator, the router's error frame, an XML
 * open tag of a streamed block, a provider lifecycle event (Anthropic `message_start`…),
 * an item the dialect could not decode (kept so no bytes go unseen), or an event of a
 * stream no dialect claims, shown as it came (the `json-events` fallback).
 */
export type ControlKind = (typeof CONTROL_KINDS)[number];

/** Every control kind, in a fixed order (the session store packs the index). */
export const CONTROL_KINDS = ['done', 'error-frame', 'block-open', 'provider-event', 'undecoded', 'event'] as const;

/**
 * One message in the shared envelope vocabulary (docs/protocols/json-envelopes.md's 13 types, plus whatever type a
 * newer server sends: unknown types are kept verbatim). Every dialect maps to this.
 */
export interface EnvelopeInit {
  frame: number;
  agent: string;
  type: string;
  final: boolean;
  delta: string;
  /** Every field other than the four base fields, as sent (citation metadata, id, name, src…). */
  extras: Record<string, unknown>;
  control?: ControlKind;
  /** Provider dialects: the wire event on the unified surface (docs/protocols/provider-events.md). */
  unified?: UnifiedEvent;
}

/**
 * The extras of an envelope that has none (nearly every text and thinking delta): one shared
 * frozen object instead of an empty one per envelope, for every dialect and for the session
 * store reading stored envelopes back.
 */
export const NO_EXTRAS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The envelope fields of an event kept undecoded: its data, verbatim, as one final delta. */
export function undecodedParts(frame: Frame): Pick<EnvelopeInit, 'type' | 'final' | 'delta' | 'extras' | 'control'> {
  return { type: UNDECODED_TYPE, final: true, delta: frame.data, extras: {}, control: 'undecoded' };
}

export interface Envelope extends EnvelopeInit {
  seq: number;
  /** Which leg of the session (0 = the first request, 1 = the first tool_results continuation…). */
  leg: number;
  dialect: DialectId;
  /** The frame's byte span in the stream (several envelopes may share one frame in XML). */
  byteStart: number;
  byteEnd: number;
  receivedAt: number;
}
