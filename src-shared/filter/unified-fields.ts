import { CONTENT_CHANNELS, UNIFIED_FAMILIES } from '../envelope/unified';
import type { EnvelopeSubject } from './envelope-fields';
import type { FieldDef } from './fields';

/**
 * Fields of the unified event a provider dialect attaches to an envelope
 * (docs/protocols/provider-events.md); absent on envelopes of the agent dialects.
 */
export const UNIFIED_FIELDS: readonly FieldDef<EnvelopeSubject>[] = [
  {
    name: 'event.family',
    type: 'string',
    values: UNIFIED_FAMILIES,
    description: 'unified event family (stream.content_block_delta, stream.tool_call_status…)',
    get: (s) => s.envelope.unified?.family,
  },
  {
    name: 'event.kind',
    type: 'string',
    description: 'unified event: block type at start, delta kind in a delta',
    get: (s) => s.envelope.unified?.kind,
  },
  {
    name: 'event.channel',
    type: 'string',
    values: CONTENT_CHANNELS,
    description: 'unified event: content channel',
    get: (s) => s.envelope.unified?.channel,
  },
  {
    name: 'event.phase',
    type: 'string',
    description: 'unified event: tool call status phase (searching, completed…)',
    get: (s) => s.envelope.unified?.phase,
  },
  {
    name: 'event.tool',
    type: 'string',
    description: 'unified event: built-in tool or tool name',
    get: (s) => s.envelope.unified?.tool?.builtin ?? s.envelope.unified?.tool?.name,
  },
  {
    name: 'event.stop_reason',
    type: 'string',
    description: 'unified event: why the message stopped',
    get: (s) => s.envelope.unified?.stop_reason,
  },
];
