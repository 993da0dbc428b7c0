import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { openAiResponsesContinuation } from './client-calls';
import { createOpenAiResponsesDecoder } from './decoder';

const OPEN_BRACE = 0x7b;

/**
 * A Responses API event: a JSON object whose type starts with `response.`, or a top-level
 * `error` with a sequence_number, named so in the `event:` field or sent as a bare `data:`
 * line (an SDK's capture, a proxy's log; no other API's error carries a sequence_number).
 */
function isResponsesEvent(frame: SniffedFrame): boolean {
  if (frame.data.charCodeAt(frame.start) !== OPEN_BRACE || !frame.data.includes('"type"')) return false;
  const object = frame.json();
  const type = object?.['type'];
  if (typeof type !== 'string' || object === undefined || 'agent' in object) return false;
  if (type.startsWith('response.')) return true;
  return type === 'error' && (frame.event === 'error' || frame.event === '') && 'sequence_number' in object;
}

/** The OpenAI Responses API stream (`event:` + `data:` frames, `response.*` event types). */
export const openAiResponsesDialect: DialectModule<'openai-responses'> = {
  id: 'openai-responses',
  label: 'OpenAI Responses API',
  detect: isResponsesEvent,
  create: createOpenAiResponsesDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'response.completed, response.failed or response.incomplete',
  evidence: { urlPaths: ['/v1/responses'] },
  // Function and custom tools are the client's: a response completed with their calls waits for it (client-calls.ts).
  clientTools: openAiResponsesContinuation,
};
