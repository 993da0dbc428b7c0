import { setField } from '../legacy-xml/fields';
import { stringifyJson } from '../../json/tree';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';

/**
 * The Anthropic Messages stream events the raw format forwards (docs/protocols/upstream-protocol.md §6
 * #26): `event.model_dump_json()` of the SDK's events, `content_block_stop` and
 * `message_stop` enriched with the accumulated block and message.
 */
export const PROVIDER_LIFECYCLE_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'ping',
]);

/** Delta types of the Messages API; others are reported as unknown and kept. */
export const KNOWN_DELTA_TYPES: ReadonlySet<string> = new Set([
  'text_delta',
  'thinking_delta',
  'input_json_delta',
  'signature_delta',
  'citations_delta',
]);

export const STREAMED_BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'thinking']);

/** Block types the JSON formatter buffers into a tool call envelope, and that envelope's type. */
export const TOOL_CALL_TYPES: ReadonlyMap<string, EnvelopeKind> = new Map([
  ['tool_use', KIND.tool_call],
  ['server_tool_use', KIND.server_tool_call],
]);

export function isServerToolResultType(blockType: string): boolean {
  return blockType.endsWith('_tool_result');
}

/** Every field of the event except `type`: the extras of a provider-event envelope. */
export function eventFields(event: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // for…in lists a parsed object's own keys in wire order, without an array of entries.
  for (const key in event) if (key !== 'type') setField(fields, key, event[key]);
  return fields;
}

/** Citation fields the JSON formatter copies when not null, in its order. */
const CITATION_FIELDS = [
  'document_index',
  'document_title',
  'start_char_index',
  'end_char_index',
  'start_page_number',
  'end_page_number',
  'url',
  'title',
] as const;

/**
 * A citation of a text block's `citations` as the JSON formatter emits it: delta = cited
 * text, extras = `citation_type` plus the non-null fields above (docs/protocols/upstream-protocol.md §4 #18).
 */
export function citationEnvelopeParts(citation: Record<string, unknown>): {
  delta: string;
  extras: Record<string, unknown>;
} {
  const type = citation['type'];
  const extras: Record<string, unknown> = { citation_type: type === undefined ? 'unknown' : type };
  for (const key of CITATION_FIELDS) {
    const value = citation[key];
    if (value !== undefined && value !== null) extras[key] = value;
  }
  return { delta: citedText(citation), extras };
}

/** A citation's `cited_text` as an envelope's delta: its text, or its JSON when it is no string. */
export function citedText(citation: Record<string, unknown>): string {
  const cited = citation['cited_text'];
  return typeof cited === 'string' ? cited : cited === undefined || cited === null ? '' : (stringifyJson(cited) ?? '');
}
