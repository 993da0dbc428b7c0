import type { SniffedFrame } from '../sniff';

/**
 * Event types of the Anthropic Messages stream. The raw format forwards the first six;
 * `ping` and `error` complete the API's vocabulary so a capture of the API itself is
 * recognised too.
 */
export const ANTHROPIC_EVENT_TYPES: ReadonlySet<string> = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'ping',
  'error',
]);

const OPEN_BRACE = 0x7b;

/**
 * Whether the frame's data is an Anthropic stream event (a JSON object whose `type` is one
 * of {@link ANTHROPIC_EVENT_TYPES} and that has no `agent`; an `error` without the AI SDK's
 * `errorText`, which is that dialect's error chunk). Called for every event of an XML leg, so
 * anything not starting with `{` is rejected before parsing.
 */
export function isAnthropicEvent(frame: SniffedFrame): boolean {
  if (frame.data.charCodeAt(frame.start) !== OPEN_BRACE || !frame.data.includes('"type"')) return false;
  const object = frame.json();
  if (!object) return false;
  const type = object['type'];
  return (
    typeof type === 'string' &&
    ANTHROPIC_EVENT_TYPES.has(type) &&
    !('agent' in object) &&
    !(type === 'error' && 'errorText' in object)
  );
}
