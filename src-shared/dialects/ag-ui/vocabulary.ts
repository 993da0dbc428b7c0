/**
 * The AG-UI event types as this decoder reads them (docs/protocols/ag-ui.md): the 1.1
 * specification's thirty-one, and the retired `THINKING_*` spellings producers still send.
 */

/** The run lifecycle: a stream opens with RUN_STARTED (or RUN_ERROR) and each run closes with one terminal event. */
export const RUN_EVENTS = ['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'STEP_STARTED', 'STEP_FINISHED'] as const;

/** The streamed families: an item opened, extended and closed by id, or spelled as chunks. */
export const STREAMED_EVENTS = [
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TEXT_MESSAGE_CHUNK',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_CHUNK',
  'TOOL_CALL_RESULT',
] as const;

/** The events the protocol retired for REASONING_*, still sent by producers built on earlier SDKs. */
export const LEGACY_THINKING_EVENTS = [
  'THINKING_START',
  'THINKING_END',
  'THINKING_TEXT_MESSAGE_START',
  'THINKING_TEXT_MESSAGE_CONTENT',
  'THINKING_TEXT_MESSAGE_END',
] as const;

/** Standalone events: they open and close nothing (state, activity, subagents, passthrough). */
export const STANDALONE_EVENTS = [
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
  'RAW',
  'CUSTOM',
] as const;

export const AG_UI_EVENT_TYPES: ReadonlySet<string> = new Set<string>([
  ...RUN_EVENTS,
  ...STREAMED_EVENTS,
  ...LEGACY_THINKING_EVENTS,
  ...STANDALONE_EVENTS,
]);

/** The known types by their letters alone, upper case: `Custom`, `RunFinished`, `text_message_content` find theirs. */
const BY_LETTERS: ReadonlyMap<string, string> = new Map([...AG_UI_EVENT_TYPES].map((type) => [lettersOf(type), type]));

function lettersOf(type: string): string {
  return type.replace(/[_\-\s]/g, '').toUpperCase();
}

/**
 * The event type an unknown `type` misspells by its case or separators (`Custom` for
 * `CUSTOM`), if any. The types are case-sensitive: the SDKs (`@ag-ui/client`'s event
 * validation, the Python SDK's `EventType`) reject such an event, and the client fails the run.
 */
export function misspelledType(type: string): string | undefined {
  return BY_LETTERS.get(lettersOf(type));
}

/**
 * Events that do not end an open chunk stream (the specification's "stand aside from
 * assembly"): everything else that is not a continuation chunk closes it.
 */
export const KEEPS_CHUNKS_OPEN: ReadonlySet<string> = new Set([
  'RAW',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
]);

/** The JSON Patch operations RFC 6902 defines. */
export const PATCH_OPERATIONS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
