import { isJsonObject } from '../../json/values';

/** AG-UI's TokenUsage counts and the names the message summary gives them (the provider APIs' own). */
const COUNTS: readonly (readonly [string, string])[] = [
  ['inputTokens', 'input_tokens'],
  ['outputTokens', 'output_tokens'],
  ['totalTokens', 'total_tokens'],
  ['reasoningTokens', 'reasoning_tokens'],
  ['cachedInputTokens', 'cached_input_tokens'],
  ['cacheWriteInputTokens', 'cache_write_input_tokens'],
];

/**
 * The `usage` of RUN_FINISHED or RUN_ERROR (one TokenUsage entry per provider and model) as
 * one usage the message summary shows: each count summed over the entries (a count no entry
 * reports stays absent, never 0), the entries themselves kept, and the models named.
 */
export function runUsage(usage: unknown): { usage: Record<string, unknown>; model: string } | undefined {
  const entries = (Array.isArray(usage) ? (usage as unknown[]) : [usage]).filter(isJsonObject);
  if (entries.length === 0) return undefined;
  const summed: Record<string, unknown> = {};
  for (const [field, name] of COUNTS) {
    const counts = entries.map((entry) => entry[field]).filter((n): n is number => typeof n === 'number');
    if (counts.length > 0) summed[name] = counts.reduce((a, b) => a + b, 0);
  }
  const models = [
    ...new Set(entries.map((entry) => entry['model']).filter((m): m is string => typeof m === 'string' && m !== '')),
  ];
  return { usage: { ...summed, entries }, model: models.join(', ') };
}
