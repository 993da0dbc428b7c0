import { isAnthropicEvent } from '../anthropic-raw/detect';
import type { DialectModule } from '../types';
import { createAnthropicMessagesDecoder } from './decoder';

/**
 * The Anthropic Messages API stream: the API names every event in the SSE `event:` field
 * (the upstream agent's raw format forwards the same events as bare `data:` lines). An
 * `error` with a sequence_number is the Responses API's.
 */
export const anthropicMessagesDialect: DialectModule<'anthropic-messages'> = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages API',
  detect: (frame) => frame.event !== '' && isAnthropicEvent(frame) && frame.json()?.['type'] === frame.event && !('sequence_number' in (frame.json() ?? {})),
  create: createAnthropicMessagesDecoder,
  syntax: 'json',
  terminator: 'dialect',
};
