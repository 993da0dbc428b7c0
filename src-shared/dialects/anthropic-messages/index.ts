import { isAnthropicEvent } from '../anthropic-raw/detect';
import type { DialectModule } from '../types';
import { createAnthropicMessagesDecoder } from './decoder';

/**
 * The Anthropic Messages API stream. The API names every event in the SSE `event:` field;
 * SDK test suites, proxies and hand-made captures often send the same events as bare `data:`
 * lines, which are this dialect too (the upstream agent's raw format is told apart by its own
 * markers, see anthropic-raw). An `event:` field that names another type, or an `error` with
 * a sequence_number (the Responses API's), is not this dialect.
 */
export const anthropicMessagesDialect: DialectModule<'anthropic-messages'> = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages API',
  detect: (frame) =>
    isAnthropicEvent(frame) &&
    (frame.event === '' || frame.json()?.['type'] === frame.event) &&
    !('sequence_number' in (frame.json() ?? {})),
  create: createAnthropicMessagesDecoder,
  syntax: 'json',
  terminator: 'dialect',
};
