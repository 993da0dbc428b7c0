import { parseJson } from '../json/values';
import type { FramerOptions } from '../sse/types';

/**
 * Whether the data of the event a stream ended inside (no blank line after it) is whole, so
 * that it can be decoded as SDKs read it (docs/diagnostics.md, `sse.unterminated-last-event`):
 * `[DONE]`, a JSON value that parses, or an XML item that ends with its `>`. A line cut in
 * the middle is none of them and stays lost (`sse.unterminated-event`).
 */
export function isCompleteEventData(data: string): boolean {
  const text = data.trim();
  if (text === '[DONE]') return true;
  if (text.startsWith('<')) return text.endsWith('>');
  return text !== '' && parseJson(text).ok;
}

/**
 * How the session decoder frames a leg, and so how anything that frames a leg's bytes again
 * to show its events must frame them: an unterminated last event with complete data is an
 * event. (The `frames` command keeps the EventSource's framing, which drops it.)
 */
export const SESSION_FRAMING: Pick<FramerOptions, 'dispatchUnterminated'> = {
  dispatchUnterminated: isCompleteEventData,
};
