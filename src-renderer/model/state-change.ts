import { stringifyJson } from '../../src-shared/json/tree';

/**
 * What made a `state` block (AG-UI's shared state, docs/protocols/ag-ui.md, "State"): the
 * event its envelope names, and for a STATE_DELTA its JSON Patch, one line an operation, so
 * that the blocks view shows what changed beside the state after it.
 */
export interface StateChange {
  /** STATE_SNAPSHOT or STATE_DELTA, as the envelope's `event` says. */
  readonly event: string;
  /** A delta's operations, each as `op path [from path] [value]`, the first MAX_OPERATIONS; empty for a snapshot. */
  readonly operations: readonly string[];
  /** Operations past those listed (the envelope holds them all). */
  readonly more: number;
  /** Why the delta was not applied (the state stayed as it was), when it was not. */
  readonly failed?: string;
}

/** Operations listed at most: a patch of thousands is read in the envelope, not in a block card. */
export const MAX_OPERATIONS = 100;

/** A value in an operation's line: its compact JSON, cut to this many characters. */
const VALUE_CHARS = 120;

function valueText(value: unknown): string {
  const text = stringifyJson(value) ?? String(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

function operationLine(operation: unknown): string {
  if (typeof operation !== 'object' || operation === null || Array.isArray(operation))
    return `(not an operation: ${valueText(operation)})`;
  const fields = operation as Record<string, unknown>;
  const pointer = (key: string): string => {
    const value = fields[key];
    if (value === undefined) return `(no ${key})`;
    if (typeof value !== 'string') return valueText(value);
    return value === '' ? '(the whole state)' : value;
  };
  const parts = [typeof fields['op'] === 'string' ? fields['op'] : '(no op)', pointer('path')];
  if ('from' in fields) parts.push('from', pointer('from'));
  if ('value' in fields) parts.push(valueText(fields['value']));
  return parts.join(' ');
}

/** The change a `state` envelope's extras describe; null when they name no event (not a state envelope). */
export function stateChangeOf(extras: Readonly<Record<string, unknown>>): StateChange | null {
  const event = extras['event'];
  if (typeof event !== 'string') return null;
  const patch = extras['patch'];
  const listed: readonly unknown[] = patch === undefined ? [] : Array.isArray(patch) ? patch : [patch];
  const operations = listed
    .slice(0, MAX_OPERATIONS)
    .map((operation) => (Array.isArray(patch) ? operationLine(operation) : valueText(operation)));
  const more = listed.length - operations.length;
  const failed =
    extras['applied'] === false ? (typeof extras['error'] === 'string' ? extras['error'] : 'not applied') : undefined;
  return failed === undefined ? { event, operations, more } : { event, operations, more, failed };
}
