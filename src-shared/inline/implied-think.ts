import type { ReadTag } from './tags';
import type { TextRuns } from './text-runs';

/** Characters right before a tag that quote it: `` `</think>` ``, `"</think>"`, `'</think>'`. */
const MENTION_BEFORE = '`"\'';

/**
 * Whether `t`, read at the top of a text block, is a `</think>` closing a `<think>` the chat
 * template wrote into the prompt (DeepSeek-R1's and QwQ's do): the model's output starts
 * inside its reasoning and only the close tag shows, as vLLM's deepseek_r1 reasoning parser
 * reads it (everything before the first `</think>` is reasoning). Only with nothing but text
 * before it in the block: after any segment, a stray `</think>` closes nothing. One written
 * right after a backtick or a quote mark is the tag mentioned, not closed.
 */
export function closesImpliedThink(t: ReadTag, runs: TextRuns): boolean {
  if (!t.closing || t.name !== 'think' || runs.started !== (runs.textOpen ? 1 : 0)) return false;
  return runs.lastChar === '' || !MENTION_BEFORE.includes(runs.lastChar);
}

export const IMPLIED_THINK_MESSAGE =
  "</think> closes a <think> the text never opened: the text before it is read as reasoning (a chat template that opens <think> in the prompt, as DeepSeek-R1's and QwQ's do, leaves only the close tag in the output).";
