import { stringifyJsonCollapsed } from '../../src-shared/json/tree';

/**
 * How many levels of pretty JSON a view shows before a container collapses into one line
 * that counts what it holds: real payloads (tool inputs, provider events, usage) nest a
 * handful of levels, and past ten the indentation alone fills half a detail pane.
 */
export const JSON_DISPLAY_DEPTH = 10;

/** Pretty JSON (indent 2) of a parsed value as the views show it; undefined where JSON has no text. */
export function displayJson(value: unknown): string | undefined {
  return stringifyJsonCollapsed(value, JSON_DISPLAY_DEPTH);
}
