/**
 * The markup around JSON tool calls in text (docs/inline.md, "JSON tool calls"): a fenced
 * ```json block or `<tool_call>…</tool_call>` (the Hermes format). A fence in another language
 * holds code, not calls.
 */

export const FENCE = '```';
const TOOL_CALL_OPEN = '<tool_call>';
const TOOL_CALL_CLOSE = '</tool_call>';
/** Fence languages that may hold tool calls (none, or json). */
const FENCE_LANGUAGES = new Set(['', 'json']);
/** The longest fence opener read (fence and language) before the candidate is given up. */
const MAX_FENCE_OPENER = 32;

export interface Wrapper {
  open: string;
  close: string;
}

/**
 * One more character `c` of an opening marker read so far (`opener`, starting with `<` or a
 * backtick): `more` (still one), `fail` (not one: the character is read again as text),
 * `wrapper` (the marker is complete: tool calls may follow), or `code` (a fence in another
 * language: a `print({"name": …})` in Python calls nothing).
 */
export type OpenerStep = { kind: 'more' } | { kind: 'fail' } | { kind: 'wrapper'; wrapper: Wrapper } | { kind: 'code' };

const MORE: OpenerStep = { kind: 'more' };
const FAIL: OpenerStep = { kind: 'fail' };

export function stepOpener(opener: string, c: string): OpenerStep {
  const next = opener + c;
  if (next.startsWith('<')) {
    if (!TOOL_CALL_OPEN.startsWith(next)) return FAIL;
    return next === TOOL_CALL_OPEN
      ? { kind: 'wrapper', wrapper: { open: TOOL_CALL_OPEN, close: TOOL_CALL_CLOSE } }
      : MORE;
  }
  if (next.length <= FENCE.length) return FENCE.startsWith(next) ? MORE : FAIL;
  if (c === '\n')
    return FENCE_LANGUAGES.has(next.slice(FENCE.length).trim().toLowerCase())
      ? { kind: 'wrapper', wrapper: { open: next, close: FENCE } }
      : { kind: 'code' };
  return !/[A-Za-z_ \t-]/.test(c) || next.length > MAX_FENCE_OPENER ? FAIL : MORE;
}
