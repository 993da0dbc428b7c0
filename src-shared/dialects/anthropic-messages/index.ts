import { isAnthropicEvent } from '../anthropic-raw/detect';
import { isJsonObject } from '../../json/values';
import type { DialectModule } from '../types';
import { anthropicContinuation } from './client-calls';
import { createAnthropicMessagesDecoder } from './decoder';

/**
 * Whether an Anthropic event type is the API's own marker: a `{"type":"ping"}` keep-alive is
 * what many servers send, and `{"type":"error", …}` too, so neither claims a stream alone
 * unless the error carries the API's error object (`error.type`). A real stream starts with
 * message_start (or that error), and a leg first decoded as the fallback still switches at it.
 * The error names the API only as that first event (`claimsOnlyFirst`): after events no
 * dialect claimed, a gateway's error in the API's shape says nothing of what they were.
 */
function namesTheApi(event: Record<string, unknown>): boolean {
  if (event['type'] === 'ping') return false;
  if (event['type'] !== 'error') return true;
  const error = event['error'];
  return isJsonObject(error) && typeof error['type'] === 'string';
}

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
    !('sequence_number' in (frame.json() ?? {})) &&
    namesTheApi(frame.json() ?? {}),
  claimsOnlyFirst: (frame) => frame.json()?.['type'] === 'error',
  create: createAnthropicMessagesDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'message_stop',
  evidence: { urlPaths: ['/v1/messages'] },
  // The API runs its server tools, not the client's: a stop on tool_use waits for it (client-calls.ts).
  clientTools: anthropicContinuation,
};
