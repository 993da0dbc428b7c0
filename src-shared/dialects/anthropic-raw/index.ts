import { AGENT_ENDPOINTS } from '../../agents/wire-formats';
import { announcesRaw } from '../legacy-xml/announced';
import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { createAnthropicRawDecoder } from './decoder';
import { isAnthropicEvent } from './detect';

/**
 * The upstream agent's raw format: Anthropic stream events as JSON lines mixed with the
 * agent layer's XML items. It is told from a bare capture of the Anthropic API by its own
 * markers: its XML meta_init announces `"format": "raw"`, and a continuation leg starts with
 * an XML tool_result item (so it continues the xml dialect). Anthropic events alone, with or
 * without `event:` lines, are the Anthropic Messages dialect.
 */
export const anthropicRawDialect: DialectModule<'raw'> = {
  id: 'raw',
  label: 'Raw Anthropic events',
  detect: announcesRaw,
  // A leg decoded as xml (a continuation that opened with an XML item) or a later leg of a
  // raw session is raw from its first bare Anthropic event on: there, the markers came first.
  takesOver: (frame) => isAnthropicEvent(frame) && !namedByEventField(frame),
  create: createAnthropicRawDecoder,
  continues: ['xml'],
  syntax: 'json+xml',
  terminator: 'done-frame',
  evidence: AGENT_ENDPOINTS,
  agentXmlItems: true,
  serverGenerations: true,
};

/** The API itself names each event in the `event:` field; the agent's raw format never does. */
function namedByEventField(frame: SniffedFrame): boolean {
  return frame.event !== '' && frame.json()?.['type'] === frame.event;
}
