import type { EnvelopeSubject } from './envelope-fields';
import type { FieldDef } from './fields';

const FAMILIES = [
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
  'stream.error',
];

/**
 * Fields of the unified event a provider dialect attaches to an envelope
 * (docs/protocols/provider-events.md); absent on envelopes of the agent dialects.
 */
export const UNIFIED_FIELDS: readonly FieldDef<EnvelopeSubject>[] = [
  { name: 'event.family', type: 'string', values: FAMILIES, description: 'unified event family (stream.content_block_delta, stream.tool_call_status…)', get: (s) => s.envelope.unified?.family },
  { name: 'event.kind', type: 'string', description: 'unified event: block type at start, delta kind in a delta', get: (s) => s.envelope.unified?.kind },
  { name: 'event.channel', type: 'string', values: ['output_text', 'refusal', 'reasoning', 'reasoning_summary', 'reasoning_summary_text', 'audio_transcript'], description: 'unified event: content channel', get: (s) => s.envelope.unified?.channel },
  { name: 'event.phase', type: 'string', description: 'unified event: tool call status phase (searching, completed…)', get: (s) => s.envelope.unified?.phase },
  { name: 'event.tool', type: 'string', description: 'unified event: built-in tool or tool name', get: (s) => s.envelope.unified?.tool?.builtin ?? s.envelope.unified?.tool?.name },
  { name: 'event.stop_reason', type: 'string', description: 'unified event: why the message stopped', get: (s) => s.envelope.unified?.stop_reason },
];
