import { NO_EXTRAS, type EnvelopeInit } from '../../envelope/types';
import { addEventData, type EventData } from '../detection';
import { isJsonObject, parseJson } from '../../json/values';
import { previewText } from '../../text/preview';
import type { Frame } from '../../sse/types';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';

/**
 * The generic fallback: a stream no dialect claims, shown event by event as it came. A JSON
 * object's type is read from its `type`, `event` or `object` member (the names streams use
 * most: Anthropic and most JSON feeds, GitHub-style event names, OpenAI's `object`), else from
 * the SSE `event:` field, else it is `message`, the type an EventSource dispatches. Any other
 * data (plain text, an array, JSON that does not parse) is a text event of the same type;
 * data that starts like a JSON object and does not parse is reported
 * (`json-events.invalid-json`), the one thing the fallback can say of a feed it does not know.
 *
 * It claims nothing it cannot know: every event is one `event` control envelope (no block is
 * built, so no block is ever "unterminated"), no member is required (no missing-field
 * finding), and no event ends the stream (no terminal-event claim: its end status speaks of
 * the transport only). The envelope's delta is the event's data verbatim; a JSON object's
 * members are its extras, so filters reach them (`extras.kind == "tick"`).
 */

/** The members a JSON event's type is read from, in this order. */
const TYPE_MEMBERS = ['type', 'event', 'object'] as const;

/** What an EventSource calls an event without an `event:` field. */
export const DEFAULT_EVENT_TYPE = 'message';

/** A type member longer than this is data, not a name (and would bloat the session's interned types). */
const MAX_TYPE_CHARS = 200;

/** The base-field names of the envelope vocabulary: a JSON member of one of these names is in the data, not the extras. */
const BASE_FIELDS = new Set(['type', 'agent', 'final', 'delta']);

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= MAX_TYPE_CHARS;

/** The event's type: a JSON name member, else the SSE event name, else `message`. */
export function eventTypeOf(object: Record<string, unknown> | undefined, sseEvent: string): string {
  if (object)
    for (const member of TYPE_MEMBERS) {
      const value = object[member];
      if (isName(value)) return value;
    }
  return sseEvent === '' ? DEFAULT_EVENT_TYPE : sseEvent;
}

/** A JSON object's members as extras, except those named like a base field (the detail pane shows those as the envelope's own). */
function extrasOf(object: Record<string, unknown>): Record<string, unknown> {
  let extras: Record<string, unknown> = NO_EXTRAS;
  for (const key in object) {
    if (BASE_FIELDS.has(key)) continue;
    if (extras === NO_EXTRAS) extras = {};
    // A wire key "__proto__" must stay a plain property, not replace the prototype.
    Object.defineProperty(extras, key, { value: object[key], enumerable: true, writable: true, configurable: true });
  }
  return extras;
}

/**
 * The data as a JSON object when it is one (leading whitespace allowed); anything else is
 * text. Data that starts like an object and does not parse gives the parser's error.
 */
function objectOf(data: string): { object?: Record<string, unknown>; error?: string } {
  const start = data.search(/\S/);
  if (start < 0 || data.charCodeAt(start) !== 0x7b /* { */) return {};
  const parsed = parseJson(data);
  if (!parsed.ok) return { error: parsed.error };
  return isJsonObject(parsed.value) ? { object: parsed.value } : {};
}

function eventEnvelope(frame: Frame, agent: string, object: Record<string, unknown> | undefined): EnvelopeInit {
  return {
    frame: frame.seq,
    agent,
    type: eventTypeOf(object, frame.event),
    final: true,
    delta: frame.data,
    extras: object ? extrasOf(object) : NO_EXTRAS,
    control: 'event',
  };
}

export function createJsonEventsDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const agent = options.defaultAgent ?? '';
  /** What the events carried so far, for the label (JSON events, text events, or both). */
  let data: EventData | undefined;
  const noteData = (event: 'json' | 'text'): void => {
    const next = addEventData(data, event);
    if (next === data) return;
    data = next;
    callbacks.onEventData?.(data);
  };
  return {
    id: 'json-events',
    push(frame) {
      const { object, error } = objectOf(frame.data);
      // Blank data (a keep-alive) carries nothing either way.
      if (object) noteData('json');
      else if (frame.data.trim() !== '') noteData('text');
      // In a feed of JSON objects it is a broken one, what a reader trips on; the fallback cannot
      // know the feed is JSON (a log line may start with "{"), so it says what it sees: an info.
      if (error !== undefined)
        callbacks.onDiagnostic({
          rule: 'json-events.invalid-json',
          message: `Event ${frame.seq} starts like a JSON object but is not valid JSON (${error}): in a feed of JSON objects, a broken one; shown as text, as it came. Data: ${previewText(frame.data)}`,
          at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
        });
      callbacks.onEnvelope(eventEnvelope(frame, agent, object));
    },
    end() {
      // Nothing is held and nothing is claimed: how the stream ended is the transport's to say.
    },
  };
}
