import type { RuleInfo } from '../../diagnostics/rules';

/** The raw format's own rules (docs/diagnostics.md), spread into the catalogue (diagnostics/rules.ts). */
export const RAW_RULES = {
  'raw.unknown-event': {
    severity: 'info',
    layer: 'raw',
    title: 'Anthropic stream event type not recognised',
    dialects: ['raw'],
  },
  'raw.index-mismatch': {
    severity: 'error',
    layer: 'raw',
    title: 'content_block event refers to a block index that is not open',
    dialects: ['raw'],
  },
  'raw.block-not-stopped': {
    severity: 'warning',
    layer: 'raw',
    title: 'Content block never got its content_block_stop (retried API call or cut stream)',
    dialects: ['raw'],
  },
} as const satisfies Record<string, RuleInfo>;
