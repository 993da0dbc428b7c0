import type { DiagnosticSink } from '../diagnostics/types';
import type { Frame } from '../sse/types';

export type DialectId = 'json' | 'xml' | 'raw';

/** Type of the control envelope that carries an event its dialect could not decode. */
export const UNDECODED_TYPE = 'undecoded';

/**
 * Control envelopes mark things that are not content of the agent vocabulary but that a
 * user must see in the timeline: the `[DONE]` terminator, the router's error frame, an XML
 * open tag of a streamed block, a provider lifecycle event (Anthropic `message_start`…),
 * or an item the dialect could not decode (kept so no bytes go unseen).
 */
export type ControlKind = 'done' | 'error-frame' | 'block-open' | 'provider-event' | 'undecoded';

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
}

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

export interface DialectCallbacks {
  onEnvelope: (envelope: EnvelopeInit) => void;
  onDiagnostic: DiagnosticSink;
  /**
   * The frame being decoded is the stream's terminal event in this dialect's protocol
   * (Anthropic Messages `message_stop`, OpenAI Responses `response.completed`); with `error`,
   * the stream ended in failure (`response.failed`, `response.incomplete`) and why. The
   * pipeline recognises `[DONE]` and the router's error frame itself. What the session's end
   * status is built from (pipeline/end-status.ts).
   */
  onStreamEnd?: (end: { event: string; error?: string }) => void;
}

export interface DialectOptions {
  /** Budget the upstream chunker aims at (bytes of one SSE message). Default 2048. */
  chunkBudget?: number;
  /**
   * Agent to stamp on items that carry none (XML/raw items, continuation legs that have no
   * meta_init). Set by the session from an earlier leg; '' when unknown.
   */
  defaultAgent?: string;
}

/**
 * A push decoder from SSE frames to envelopes. `[DONE]` and error frames are recognised
 * before a dialect sees a frame (see pipeline/stream-control.ts), so dialects only get
 * content frames.
 */
export interface DialectDecoder {
  readonly id: DialectId;
  push(frame: Frame): void;
  end(): void;
  /**
   * True while a streamed text/thinking block is open, where any item is content whatever it
   * looks like (XML dialect only). The pipeline only re-detects the dialect outside one.
   */
  insideStreamedBlock?(): boolean;
}

export type DialectFactory = (callbacks: DialectCallbacks, options?: DialectOptions) => DialectDecoder;
