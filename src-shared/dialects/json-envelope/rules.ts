import type { RuleInfo } from '../../diagnostics/rules';

/** The JSON envelope dialect's own rules (docs/diagnostics.md), spread into the catalogue (diagnostics/rules.ts). */
export const ENVELOPE_RULES = {
  'json.lone-surrogate': {
    severity: 'error',
    layer: 'dialect',
    title: 'JSON string contains an unpaired surrogate escape',
    dialects: ['json'],
  },
  'envelope.missing-field': {
    severity: 'error',
    layer: 'dialect',
    title: 'Envelope lacks a base field (type, agent, final, delta)',
    dialects: ['json'],
  },
  'envelope.field-type': {
    severity: 'error',
    layer: 'dialect',
    title: 'Envelope base field has the wrong JSON type',
    dialects: ['json'],
  },
  'envelope.unknown-type': {
    severity: 'info',
    layer: 'dialect',
    title: 'Envelope type is not in the known vocabulary (kept and shown)',
    dialects: ['json'],
  },
  'envelope.over-budget-after-escaping': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Envelope exceeds the chunk budget (2048 bytes by default) only because of JSON escaping',
    dialects: ['json'],
  },
  'envelope.over-budget': {
    severity: 'warning',
    layer: 'dialect',
    title:
      'Envelope exceeds the chunk budget (2048 bytes by default) even before escaping: the payload was not chunked',
    dialects: ['json'],
  },
  'envelope.payload-json': {
    severity: 'error',
    layer: 'dialect',
    title: 'Reassembled JSON payload does not parse',
    // The upstream agent's formats, whose JSON payloads arrive in chunks. A provider dialect
    // checks its tool arguments itself (provider.tool-args-invalid), once, where they complete.
    dialects: ['json', 'xml', 'raw'],
  },
} as const satisfies Record<string, RuleInfo>;
