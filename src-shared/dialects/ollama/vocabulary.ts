import type { ContentChannel, DeltaKind } from '../../envelope/unified';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';

/**
 * The words of an Ollama chunk (docs/protocols/ollama.md): the two streamed text channels,
 * what a `done_reason` says of the output, and the counts of the done line.
 */

/** A streamed text channel: the envelope type its text streams as, and its unified words. */
export interface Channel {
  readonly kind: EnvelopeKind;
  /** The block type at its start, on the unified surface. */
  readonly block: string;
  readonly channel: ContentChannel;
  readonly delta: DeltaKind;
}

/** `message.content` (`/api/chat`) or `response` (`/api/generate`): the answer. */
export const CONTENT: Channel = { kind: KIND.text, block: 'text', channel: 'output_text', delta: 'text_delta' };
/** `message.thinking` or `thinking`: the reasoning of a thinking model (`"think": true`). */
export const THINKING: Channel = {
  kind: KIND.thinking,
  block: 'thinking',
  channel: 'reasoning',
  delta: 'reasoning_delta',
};

/** The line that ends a response, as findings and end statuses name it. */
export const DONE_LINE = 'a line with "done": true';

/**
 * What a done line's `done_reason` says of the output: `stop` ends it well, `length` (the
 * `num_predict` limit or the context) cut it short; `load` and `unload` answer a request that
 * only loaded or unloaded the model (an empty prompt, `keep_alive: 0`), which generates nothing.
 */
export type DoneOutcome = 'completed' | 'incomplete';

const DONE_OUTCOMES: Readonly<Record<string, DoneOutcome>> = {
  stop: 'completed',
  length: 'incomplete',
  load: 'completed',
  unload: 'completed',
};

/** The outcome of a done_reason; undefined for one this version does not know (kept, reported once). */
export function doneOutcome(reason: string): DoneOutcome | undefined {
  return Object.hasOwn(DONE_OUTCOMES, reason) ? DONE_OUTCOMES[reason] : undefined;
}

/** The counts and durations (nanoseconds) a done line carries, in the order the API writes them. */
const USAGE_FIELDS = [
  'total_duration',
  'load_duration',
  'prompt_eval_count',
  // The prompt tokens read from the cache (recorded from llama3.2:3b; earlier servers omit it).
  'prompt_eval_cached_count',
  'prompt_eval_duration',
  'eval_count',
  'eval_duration',
] as const;

/**
 * The done line's counts as the message summary's usage: `input_tokens` (`prompt_eval_count`)
 * and `output_tokens` (`eval_count`), which the summary's tokens per second read, then the
 * fields as sent. Undefined when the line has none.
 */
export function summaryUsage(line: Record<string, unknown>): Record<string, unknown> | undefined {
  const sent: Record<string, unknown> = {};
  for (const key of USAGE_FIELDS) if (typeof line[key] === 'number') sent[key] = line[key];
  if (Object.keys(sent).length === 0) return undefined;
  return {
    ...(typeof sent['prompt_eval_count'] === 'number' ? { input_tokens: sent['prompt_eval_count'] } : {}),
    ...(typeof sent['eval_count'] === 'number' ? { output_tokens: sent['eval_count'] } : {}),
    ...sent,
  };
}
