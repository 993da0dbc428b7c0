import { KIND } from '../../src-shared/envelope/vocabulary';
import { stringifyJson } from '../../src-shared/json/tree';
import { isJsonObject } from '../../src-shared/json/values';
import { formatFact } from './format';

/** The fields a reader looks for first in meta_init, meta_final and a provider message's summary. */
const SUMMARY_FACTS: Record<string, readonly string[]> = {
  meta_init: ['model', 'format', 'user_query', 'agent_uuid', 'parent_agent_uuid'],
  meta_final: ['stop_reason', 'total_steps', 'cost', 'cumulative_usage'],
  message: [
    'model',
    'choice_index',
    'status',
    'stop_reason',
    'interrupts',
    'tokens',
    'time_to_first_token_ms',
    'output_tokens_per_second',
    'moderation',
    'error',
    'request_id',
    'incomplete_details',
  ],
};

/** A provider message's usage as one fact: `412 in · 38 out` (the whole usage is in its JSON). */
function withTokens(kind: string, p: Record<string, unknown>): Record<string, unknown> {
  const usage = p['usage'];
  if (kind !== KIND.message || typeof usage !== 'object' || usage === null) return p;
  const u = usage as Record<string, unknown>;
  const count = (key: string): string => (typeof u[key] === 'number' ? String(u[key]) : '?');
  // With several choices (Chat Completions' n > 1) each one's summary carries the usage of the
  // whole completion: it is said, so that nobody adds the choices' tokens up.
  const whole = typeof p['choice_index'] === 'number' ? ' (all choices)' : '';
  return { ...p, tokens: `${count('input_tokens')} in · ${count('output_tokens')} out${whole}` };
}

/**
 * A provider message's moderation as one fact: `input ok · output flagged (violence)`, each
 * side the API checked with its flagged categories (the whole result is in its JSON).
 */
function withModeration(kind: string, p: Record<string, unknown>): Record<string, unknown> {
  const moderation = p['moderation'];
  if (kind !== KIND.message || !isJsonObject(moderation)) return p;
  const sides = Object.entries(moderation).flatMap(([side, result]) => {
    if (!isJsonObject(result) || typeof result['flagged'] !== 'boolean') return [];
    if (!result['flagged']) return [`${side} ok`];
    const flags = isJsonObject(result['categories']) ? Object.entries(result['categories']) : [];
    const categories = flags.filter(([, flagged]) => flagged === true).map(([category]) => category);
    return [`${side} flagged${categories.length > 0 ? ` (${categories.join(', ')})` : ''}`];
  });
  return sides.length > 0 ? { ...p, moderation: sides.join(' · ') } : p;
}

/** An interrupt's reason, else its id, else `?`. */
function interruptName(interrupt: unknown): string {
  if (!isJsonObject(interrupt)) return '?';
  const { reason, id } = interrupt;
  return typeof reason === 'string' ? reason : typeof id === 'string' ? id : '?';
}

/**
 * An interrupted run's interrupts as one fact: each one's reason (or id), `schedule_meeting`
 * (the whole of each, with its metadata, is in the JSON).
 */
function withInterrupts(kind: string, p: Record<string, unknown>): Record<string, unknown> {
  const interrupts = p['interrupts'];
  if (kind !== KIND.message || !Array.isArray(interrupts)) return p;
  const named = (interrupts as unknown[]).map(interruptName);
  return named.length > 0 ? { ...p, interrupts: named.join(', ') } : p;
}

/**
 * The facts shown on a JSON block's first line, in the order a reader looks for them. A field
 * without a value (absent, null or an empty string: a v4 data stream names no model) is left
 * out, not shown as a label with nothing after it.
 */
export function summaryFacts(kind: string, parsed: unknown): [string, string][] {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const p = withInterrupts(kind, withModeration(kind, withTokens(kind, parsed as Record<string, unknown>)));
  const wanted = SUMMARY_FACTS[kind] ?? SUMMARY_FACTS['meta_final'] ?? [];
  const out: [string, string][] = [];
  for (const key of wanted) {
    const value = p[key];
    if (value === undefined || value === null || value === '') continue;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number'
          ? formatFact(key, value)
          : (stringifyJson(value) ?? '');
    out.push([key, text.length > 90 ? `${text.slice(0, 89)}…` : text]);
  }
  return out;
}
