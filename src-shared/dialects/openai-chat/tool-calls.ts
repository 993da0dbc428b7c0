import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';

/** One tool call of a choice, as its fragments built it. */
export interface ToolCall {
  /** How the findings name it: `tool call 1`, `the function_call`, `tool call without index 0`. */
  label: string;
  /** The wire's `index` (undefined for a whole call sent without one). */
  index: number | undefined;
  /** The legacy `delta.function_call`, not a `tool_calls` entry. */
  legacy: boolean;
  id: string;
  name: string;
  /** Argument text as it came, joined when the call ends. */
  args: string[];
  /**
   * What the server attached to the call for the client to send back with it: Gemini's
   * OpenAI-compatible API puts the call's thought signature in `extra_content.google`, and
   * refuses a tool loop whose calls come back without it.
   */
  extraContent?: unknown;
}

/** What a `tool_calls` fragment did; `args`, the argument text it carried ('' for none). */
export type FragmentOutcome =
  /** Began a call (its first fragment, with an id or a name). */
  | { kind: 'started'; call: ToolCall; args: string }
  /** Added argument text to an open call. */
  | { kind: 'appended'; call: ToolCall; args: string }
  /** Addressed a call no fragment with an id or a name began: begun here, without them (`provider.block-not-started`). */
  | { kind: 'not-started'; call: ToolCall; args: string }
  /** Began a call with another id under an index whose call is still open (`provider.block-started-twice`). */
  | { kind: 'restarted'; call: ToolCall; previous: ToolCall; args: string }
  /** Was no JSON object. */
  | { kind: 'invalid' };

/**
 * The tool calls of one choice between its first fragment and its finish_reason. OpenAI sends
 * each call as fragments addressed by `index`: the first carries the id, type and name, the
 * later ones argument text. Some servers send calls without an index: each such fragment with
 * an id or a name is a call of its own, and one with neither continues the call begun at its
 * place in the `tool_calls` array (Moonshot begins several calls in one chunk, then sends their
 * arguments in that order), else the last call. Some put several calls under one index, told
 * apart by their ids.
 */
export class ToolCalls {
  private readonly byKey = new Map<string, ToolCall>();
  private readonly order: ToolCall[] = [];
  private last: ToolCall | undefined;
  /** The latest call begun without an index at each place of a `tool_calls` array. */
  private unindexedAt: (ToolCall | undefined)[] = [];
  private unindexed = 0;

  get size(): number {
    return this.order.length;
  }

  /** Takes one fragment of `delta.tool_calls`, at `position` in it (or the legacy `delta.function_call`, `legacy`). */
  add(fragment: unknown, legacy = false, position = 0): FragmentOutcome {
    if (!isJsonObject(fragment)) return { kind: 'invalid' };
    const fn = legacy ? fragment : isJsonObject(fragment['function']) ? fragment['function'] : {};
    const index = legacy ? undefined : integer(fragment['index']);
    const id = typeof fragment['id'] === 'string' ? fragment['id'] : '';
    const name = typeof fn['name'] === 'string' ? fn['name'] : '';
    const args = argumentText(fn['arguments']);
    const named = id !== '' || name !== '';
    const key = legacy ? 'function_call' : index !== undefined ? String(index) : undefined;
    const open =
      key !== undefined ? this.byKey.get(key) : named ? undefined : (this.unindexedAt[position] ?? this.last);
    const extraContent = fragment['extra_content'];
    if (open && !(id !== '' && open.id !== '' && id !== open.id)) {
      open.id ||= id;
      open.name ||= name;
      if (args !== '') open.args.push(args);
      if (open.extraContent === undefined && extraContent != null) open.extraContent = extraContent;
      this.last = open;
      return { kind: 'appended', call: open, args };
    }
    const label = legacy
      ? 'the function_call'
      : index !== undefined
        ? `tool call ${index}`
        : `tool call without index ${this.unindexed++}`;
    const call: ToolCall = { label, index, legacy, id, name, args: args === '' ? [] : [args] };
    if (extraContent != null) call.extraContent = extraContent;
    this.byKey.set(key ?? `#${label}`, call);
    if (key === undefined) this.unindexedAt[position] = call;
    this.order.push(call);
    this.last = call;
    if (open) return { kind: 'restarted', call, previous: open, args };
    return named ? { kind: 'started', call, args } : { kind: 'not-started', call, args };
  }

  /** Every call, in the order they began, and forgets them (the choice finished). */
  take(): ToolCall[] {
    const calls = this.order.splice(0);
    this.byKey.clear();
    this.last = undefined;
    this.unindexedAt = [];
    return calls;
  }
}

/** The id a legacy `function_call` (which has none) is known by: its call block's and its answer's. */
export const FUNCTION_CALL_ID = 'function_call';

/**
 * The id a call is known by once it ends: its own; the legacy function_call, which has none,
 * FUNCTION_CALL_ID, so that its call block and the pause that awaits it name it alike.
 */
export const callId = (call: ToolCall): string => (call.legacy && call.id === '' ? FUNCTION_CALL_ID : call.id);

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** Argument text: a string as sent; some servers send the arguments as a JSON object instead. */
function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : jsonText(value);
}
