import type { RuleInfo } from '../../diagnostics/rules';

/** The fallback's own rule (docs/diagnostics.md), spread into the catalogue (diagnostics/rules.ts). */
export const JSON_EVENTS_RULES = {
  'json-events.invalid-json': {
    severity: 'info',
    layer: 'dialect',
    title: 'Event data starts like a JSON object but is not valid JSON',
    dialects: ['json-events'],
  },
} as const satisfies Record<string, RuleInfo>;
