import { announcedXmlFormat } from '../legacy-xml/announced';
import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { createAnthropicRawDecoder } from './decoder';
import { isAnthropicEvent } from './detect';

/**
 * The upstream agent's raw format: Anthropic stream events as JSON lines mixed with the
 * agent layer's XML items. It announces itself in its XML meta_init; a continuation leg
 * starts with an XML tool_result item, so it continues the xml dialect.
 */
/** The API itself names each event in the `event:` field; the agent's raw format never does. */
function namedByEventField(frame: SniffedFrame): boolean {
  return frame.event !== '' && frame.json()?.['type'] === frame.event;
}

export const anthropicRawDialect: DialectModule<'raw'> = {
  id: 'raw',
  label: 'Raw Anthropic events',
  detect: (frame) => announcedXmlFormat(frame) === 'raw' || (isAnthropicEvent(frame) && !namedByEventField(frame)),
  create: createAnthropicRawDecoder,
  continues: ['xml'],
  syntax: 'json+xml',
  terminator: 'done-frame',
  agentXmlItems: true,
};
