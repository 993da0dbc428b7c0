import { isStreamedEnvelopeType, kindsWhere } from './vocabulary';

/**
 * How reconstruction treats each envelope type. Streamed kinds (text, thinking) grow delta by
 * delta and close on an empty final marker; every other kind is a buffered payload whose last
 * chunk carries `final: true` and content. Citations and tool_result_image never form blocks
 * of their own: they attach to a text block and to a tool_result block.
 */
export const isStreamedKind = isStreamedEnvelopeType;

const TOOL_CALL_KINDS = new Set<string>(kindsWhere((k) => k.tool === 'call'));
const TOOL_RESULT_KINDS = new Set<string>(kindsWhere((k) => k.tool === 'result'));

export function isToolCallKind(kind: string): boolean {
  return TOOL_CALL_KINDS.has(kind);
}

export function isToolResultKind(kind: string): boolean {
  return TOOL_RESULT_KINDS.has(kind);
}

/** Kinds whose reassembled payload is JSON by construction (docs/protocols/json-envelopes.md and docs/protocols/upstream-protocol.md §4 #19, §10): parsed once the block completes. */
const JSON_PAYLOAD_KINDS = new Set<string>(kindsWhere((k) => k.jsonPayload === true));

export function hasJsonPayload(kind: string): boolean {
  return JSON_PAYLOAD_KINDS.has(kind);
}

/** Block kind of the router's error frame (the pipeline's control envelope type). */
export const ERROR_FRAME_KIND = 'error_frame';
