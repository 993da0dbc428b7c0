/** The 13 message types of the JSON envelope specification (docs/protocols/json-envelopes.md). */
export const SEED_ENVELOPE_TYPES = [
  'meta_init',
  'thinking',
  'text',
  'citation',
  'tool_call',
  'server_tool_call',
  'tool_result',
  'tool_result_image',
  'server_tool_result',
  'awaiting_frontend_tools',
  'meta_files',
  'error',
  'meta_final',
] as const;

/**
 * Types the newer `agent_base` server adds (MetaDelta stream types). End-turn hooks can emit
 * further arbitrary types; those stay unknown and are reported as such, never dropped.
 */
export const AGENT_BASE_ENVELOPE_TYPES = [
  'rollback',
  'aborted',
  'meta_end_turn_validation',
  'compaction_start',
  'compaction_end',
  'meta_todo',
] as const;

const KNOWN = new Set<string>([...SEED_ENVELOPE_TYPES, ...AGENT_BASE_ENVELOPE_TYPES]);

export function isKnownEnvelopeType(type: string): boolean {
  return KNOWN.has(type);
}

/**
 * Types whose deltas stream as the model produced them, without chunking: upstream's text
 * and thinking, and the provider dialects' refusals and reasoning summaries. (The provider
 * dialects also emit `message`, `redacted_thinking` and `custom_tool_call` envelopes, which
 * the agent vocabulary has no word for; see docs/dialects.md.)
 */
const STREAMED = new Set<string>(['text', 'thinking', 'refusal', 'reasoning_summary']);

export function isStreamedEnvelopeType(type: string): boolean {
  return STREAMED.has(type);
}

/** The four fields every envelope carries; everything else is an extra. */
export const BASE_FIELDS = ['type', 'agent', 'final', 'delta'] as const;
