import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The AI SDK's own rules (docs/diagnostics.md, "AI SDK UI stream"). What it shares with the
 * provider APIs (a part for a text or tool id never started, tool input that does not parse, a
 * stream without its terminal part, an error part) is reported by the `provider.*` rules.
 */
export const AI_SDK_RULES = {
  'ai-sdk.after-finish': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Part after the message’s finish part (a frontend still applies it to the finished message)',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.missing-finish': {
    severity: 'warning',
    layer: 'dialect',
    title: 'The stream ended with [DONE] but the message never got its finish part',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.aborted': {
    severity: 'warning',
    layer: 'dialect',
    title: 'The server aborted the stream (abort part): the message is unfinished',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.tool-input-error': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Tool call whose input the server could not use (tool-input-error)',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.tool-output-error': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Tool that failed when it ran (tool-output-error)',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.bad-line': {
    severity: 'error',
    layer: 'dialect',
    title: 'Data stream line that is not CODE:JSON (v4); kept undecoded',
    dialects: ['ai-sdk-ui'],
  },
  'ai-sdk.unknown-code': {
    severity: 'info',
    layer: 'dialect',
    title: 'Data stream part code this version does not know (v4); kept and shown',
    dialects: ['ai-sdk-ui'],
  },
} as const satisfies Record<string, RuleInfo>;
