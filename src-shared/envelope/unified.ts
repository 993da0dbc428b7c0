/**
 * The provider-agnostic event surface the provider dialects map their wire events onto
 * (docs/protocols/provider-events.md): message lifecycle, content blocks with a kind and a
 * channel, tool calls with status phases, and the ids that tie them together. One wire event
 * maps to at most one unified event; it rides on the envelope the event decoded to.
 */

/** The event families (the filter's `event.family` values read this list). */
export const UNIFIED_FAMILIES = [
  'stream.message_start',
  'stream.message_delta',
  'stream.message_stop',
  'stream.ping',
  'stream.content_block_start',
  'stream.content_block_delta',
  'stream.content_block_stop',
  'stream.tool_call_start',
  'stream.tool_call_input.delta',
  'stream.tool_call_status',
  'stream.tool_call_result',
  'stream.tool_call_stop',
  /** An API error event: not in the surface's families, which end a failed message with message_stop. */
  'stream.error',
] as const;

export type UnifiedFamily = (typeof UNIFIED_FAMILIES)[number];

export type DeltaKind =
  | 'text_delta'
  | 'input_json_delta'
  | 'citations_delta'
  | 'annotation_added'
  | 'refusal_delta'
  | 'reasoning_delta'
  | 'reasoning_summary_delta'
  | 'reasoning_summary_text_delta'
  | 'audio_delta'
  | 'audio_transcript_delta'
  /** Extensions for what the surface's list leaves out: Anthropic's thinking signature, code interpreter code. */
  | 'signature_delta'
  | 'code_delta';

/** The content channels (the filter's `event.channel` values read this list). */
export const CONTENT_CHANNELS = [
  'output_text',
  'refusal',
  'reasoning',
  'reasoning_summary',
  'reasoning_summary_text',
  'audio_transcript',
] as const;

export type ContentChannel = (typeof CONTENT_CHANNELS)[number];

export type ToolKind = 'client' | 'server' | 'builtin' | 'mcp' | 'custom';

export type StatusPhase =
  | 'started'
  | 'queued'
  | 'searching'
  | 'in_progress'
  | 'interpreting'
  | 'generating'
  | 'result'
  | 'completed'
  | 'incomplete'
  | 'canceled'
  | 'failed';

/** Which response, message, item, block and tool call an event belongs to (only the ones the wire gave). */
export interface StreamIds {
  response_id?: string;
  message_id?: string;
  item_id?: string;
  block_id?: string;
  tool_call_id?: string;
  output_index?: number;
  content_index?: number;
}

export interface UnifiedTool {
  kind: ToolKind;
  /** For built-in tools: web_search, file_search, code_interpreter, computer_use, image_generation… */
  builtin?: string;
  name?: string;
}

export interface UnifiedEvent {
  family: UnifiedFamily;
  ids: StreamIds;
  /** Content blocks: the block type at start, the delta kind in a delta. */
  kind?: string;
  channel?: ContentChannel;
  tool?: UnifiedTool;
  /** A StatusPhase, or the provider's own phase name where the surface has none (e.g. `partial_image`). */
  phase?: StatusPhase | (string & Record<never, never>);
  /** What a status event says the tool is doing (a query, a page it opens…). */
  action?: Record<string, unknown>;
  stop_reason?: string;
  /** Web search results, normalised (the raw result stays on the wire event). */
  search_results?: { url: string; title: string }[];
  usage?: Record<string, unknown>;
  error?: unknown;
}

/** The one-line label a timeline row shows beside the wire type: the family without `stream.`, and the kind or phase. */
export function unifiedLabel(event: UnifiedEvent): string {
  const detail = event.kind ?? event.phase ?? event.tool?.builtin ?? event.tool?.name;
  const family = event.family.slice('stream.'.length);
  return detail ? `${family} · ${detail}` : family;
}

/** Builds a unified event, leaving out fields that are undefined (events stay small and JSON-stable). */
export function unified(
  family: UnifiedFamily,
  ids: StreamIds,
  fields: Omit<UnifiedEvent, 'family' | 'ids'> = {},
): UnifiedEvent {
  const event: UnifiedEvent = { family, ids: compact(ids) };
  const out = event as unknown as Record<string, unknown>;
  for (const key in fields) {
    const value = (fields as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return event;
}

function compact(ids: StreamIds): StreamIds {
  const out: Record<string, unknown> = {};
  for (const key in ids) {
    const value = (ids as Record<string, unknown>)[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
