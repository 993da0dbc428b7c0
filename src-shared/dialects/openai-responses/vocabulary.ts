import type { ContentChannel, DeltaKind } from '../../envelope/unified';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';

/**
 * The Responses API's vocabulary as this decoder reads it (docs/protocols/provider-events.md):
 * part types, the text and tool-input streams, and the item and event families.
 */

export const PART_TYPES: Readonly<Record<string, { envelopeType: EnvelopeKind; channel: ContentChannel }>> = {
  output_text: { envelopeType: KIND.text, channel: 'output_text' },
  refusal: { envelopeType: KIND.refusal, channel: 'refusal' },
  reasoning_text: { envelopeType: KIND.thinking, channel: 'reasoning' },
  summary_text: { envelopeType: KIND.reasoning_summary, channel: 'reasoning_summary' },
};

/** Text streams: the delta event's prefix, the part type it streams into, and the unified delta kind. */
export const TEXT_STREAMS: Readonly<Record<string, { part: string; kind: DeltaKind; doneField: string }>> = {
  'response.output_text': { part: 'output_text', kind: 'text_delta', doneField: 'text' },
  'response.refusal': { part: 'refusal', kind: 'refusal_delta', doneField: 'refusal' },
  'response.reasoning_text': { part: 'reasoning_text', kind: 'reasoning_delta', doneField: 'text' },
  'response.reasoning_summary_text': { part: 'summary_text', kind: 'reasoning_summary_text_delta', doneField: 'text' },
};

/** The text streams' delta events by their whole type: the most frequent events, found with one lookup. */
export const TEXT_DELTAS: ReadonlyMap<string, (typeof TEXT_STREAMS)[string]> = new Map(
  Object.entries(TEXT_STREAMS).map(([prefix, stream]) => [`${prefix}.delta`, stream]),
);

/**
 * A tool input stream: the done event's field with the complete input, and for a stream of one
 * part of what the call runs, not its arguments (interpreter code, a shell call's commands,
 * each starting with a `.added`, a patch's diff), the kind of content it is.
 */
export interface InputStream {
  field: string;
  content?: string;
}

/** Tool input streams by their events' prefix (`….delta` / `….done`). */
export const INPUT_STREAMS: Readonly<Record<string, InputStream>> = {
  'response.function_call_arguments': { field: 'arguments' },
  'response.custom_tool_call_input': { field: 'input' },
  'response.mcp_call_arguments': { field: 'arguments' },
  'response.code_interpreter_call_code': { field: 'code', content: 'code' },
  'response.shell_call_command': { field: 'command', content: 'command' },
  'response.apply_patch_call_operation_diff': { field: 'diff', content: 'diff' },
};

/** Built-in and MCP calls that report status phases as `response.<call>.<phase>`. */
export const STATUS_CALLS = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
]);
export const BUILTIN_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
]);
/**
 * A tool the API defines but the client runs: `input` names the item's field that says what
 * to run, or its fields, then an object of those the item has.
 */
export interface ClientRun {
  tool: string;
  input: string | readonly string[];
}
/**
 * Tools the API defines but the client runs (its local shell, its shell, its file patches, the
 * computer it drives): a call waits for the client's output item, like a function call. A
 * shell call the API runs in its own container is answered in the stream by a
 * `shell_call_output` item. A computer call says what to do as one `action` (the preview tool)
 * or a list of `actions`, with the safety checks the client must acknowledge to go on.
 */
export const CLIENT_RUN_ITEMS: Readonly<Record<string, ClientRun>> = {
  local_shell_call: { tool: 'local_shell', input: 'action' },
  shell_call: { tool: 'shell', input: 'action' },
  apply_patch_call: { tool: 'apply_patch', input: 'operation' },
  computer_call: { tool: 'computer', input: ['action', 'actions', 'pending_safety_checks'] },
};

/** What a client-run call runs, as its item says it (ClientRun.input); undefined when the item has none of it. */
export function clientRunInput(run: ClientRun, item: Readonly<Record<string, unknown>>): unknown {
  if (typeof run.input === 'string') return item[run.input];
  const fields = run.input.filter((field) => item[field] !== undefined);
  return fields.length === 0 ? undefined : Object.fromEntries(fields.map((field) => [field, item[field]]));
}
export const CALL_OUTPUT_ITEMS: Readonly<Record<string, string>> = { shell_call_output: 'shell' };
export const KNOWN_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'custom_tool_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  ...BUILTIN_ITEMS,
  ...Object.keys(CLIENT_RUN_ITEMS),
  ...Object.keys(CALL_OUTPUT_ITEMS),
]);
export const LIFECYCLE = new Set(['response.created', 'response.queued', 'response.in_progress']);
export const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);
export const AUDIO = new Set([
  'response.audio.delta',
  'response.audio.done',
  'response.audio_transcript.delta',
  'response.audio_transcript.done',
]);
