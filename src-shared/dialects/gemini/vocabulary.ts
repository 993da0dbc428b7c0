import { isJsonObject } from '../../json/values';
import type { GeminiRuleId } from './rules';

/**
 * What a candidate's `finishReason` says (Gemini API reference, `FinishReason`; Vertex AI
 * adds a few). `STOP` is the natural end. The others stop the output before its natural end:
 * on purpose (a token limit, a safety or recitation filter, a blocklist…), reported as a
 * warning since everything sent arrived; or because the model's tool call was invalid and the
 * API dropped it, reported as an error since the call never reaches the client.
 */
export const DROPPED_CALL_REASONS: ReadonlySet<string> = new Set([
  'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
]);

export function finishRule(reason: string): GeminiRuleId | undefined {
  if (reason === 'STOP') return undefined;
  return DROPPED_CALL_REASONS.has(reason) ? 'gemini.function-call-dropped' : 'gemini.finish-incomplete';
}

/** The phase of the message's stop on the unified surface. */
export function finishPhase(reason: string): 'completed' | 'incomplete' | 'failed' {
  if (reason === 'STOP') return 'completed';
  return DROPPED_CALL_REASONS.has(reason) ? 'failed' : 'incomplete';
}

/** Part fields this dialect decodes; any other part is kept as a provider event and reported once. */
export const PART_KINDS = [
  'text',
  'functionCall',
  'executableCode',
  'codeExecutionResult',
  'inlineData',
  'fileData',
  'functionResponse',
] as const;

export type PartKind = (typeof PART_KINDS)[number];

/** Which kind of part this is: its first known content field, or undefined (a part of a kind this version does not know). */
export function partKind(part: Record<string, unknown>): PartKind | undefined {
  for (const kind of PART_KINDS) if (kind in part) return kind;
  return undefined;
}

const num = (usage: Record<string, unknown>, key: string): number => (typeof usage[key] === 'number' ? usage[key] : 0);

/**
 * `usageMetadata` with the token counts the message summary reads added: `input_tokens`
 * (the prompt's) and `output_tokens` (the candidates' plus the thoughts', the tokens the
 * model generated). Gemini sends the running totals on every chunk, so the last one counts.
 */
export function normalisedUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(usage)) return undefined;
  const counted = 'promptTokenCount' in usage || 'candidatesTokenCount' in usage || 'thoughtsTokenCount' in usage;
  if (!counted) return { ...usage };
  return {
    input_tokens: num(usage, 'promptTokenCount'),
    output_tokens: num(usage, 'candidatesTokenCount') + num(usage, 'thoughtsTokenCount'),
    ...usage,
  };
}
