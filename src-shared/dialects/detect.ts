import { decodeHTML } from 'entities';
import { parseJsonObject } from '../json/values';
import type { DialectId } from './types';

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

const LESS_THAN = 0x3c;
const OPEN_BRACE = 0x7b;

function firstNonSpace(data: string): number {
  let i = 0;
  while (i < data.length && /\s/.test(data.charAt(i))) i++;
  return i;
}

/** A JSON envelope has the four base fields; their types are the decoder's to check. */
function isEnvelopeObject(object: Record<string, unknown>): boolean {
  return 'type' in object && 'agent' in object && 'final' in object && 'delta' in object;
}

function isAnthropicEventObject(object: Record<string, unknown>): boolean {
  const type = object['type'];
  return typeof type === 'string' && ANTHROPIC_EVENT_TYPES.has(type) && !('agent' in object);
}

/**
 * The format an XML `<meta_init data="…">` item announces: its `data` attribute is
 * HTML-escaped JSON whose `format` is "xml" or "raw" (raw streams announce themselves with
 * the same XML item). Anything unreadable counts as xml, the item's own syntax.
 */
function formatOfXmlMetaInit(item: string): DialectId {
  const match = /\sdata\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(item);
  const attribute = match?.[1] ?? match?.[2];
  if (attribute === undefined) return 'xml';
  const payload = parseJsonObject(decodeHTML(attribute));
  return payload?.['format'] === 'raw' ? 'raw' : 'xml';
}

/**
 * Guess the wire format from one event's data (docs/protocols/upstream-protocol.md §3 #13). Returns
 * undefined when this event does not tell, e.g. garbage or a JSON object of neither kind;
 * the caller then looks at the next events. `[DONE]` and error frames are recognised before
 * this is called. Runs on the first events only, never throws.
 */
export function detectFormat(data: string): DialectId | undefined {
  const start = firstNonSpace(data);
  if (data.startsWith('<meta_init', start)) return formatOfXmlMetaInit(data.slice(start));
  const first = data.charCodeAt(start);
  if (first === LESS_THAN) return 'xml';
  if (first !== OPEN_BRACE) return undefined;
  const object = parseJsonObject(start === 0 ? data : data.slice(start));
  if (!object) return undefined;
  if (isEnvelopeObject(object)) return 'json';
  if (isAnthropicEventObject(object)) return 'raw';
  return undefined;
}

/**
 * Whether the data is an Anthropic stream event (a JSON object whose `type` is one of
 * {@link ANTHROPIC_EVENT_TYPES} and that has no `agent`). Called for every event of an XML
 * leg, so anything not starting with `{` is rejected before parsing.
 */
export function isAnthropicEventData(data: string): boolean {
  const start = firstNonSpace(data);
  if (data.charCodeAt(start) !== OPEN_BRACE || !data.includes('"type"')) return false;
  const object = parseJsonObject(start === 0 ? data : data.slice(start));
  return object !== undefined && isAnthropicEventObject(object);
}
