import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The Gemini dialect's own rules (docs/diagnostics.md, "Gemini"). Severity follows the
 * catalogue's principle: an error when something the model produced does not reach the
 * client whole, a warning when the API deviated or stopped on purpose and everything sent
 * arrived. A stream without a finishing chunk, an API error in the stream, arguments that do
 * not parse and unknown parts use the shared `provider.*` rules.
 */
export const GEMINI_RULES = {
  'gemini.finish-incomplete': {
    severity: 'warning',
    layer: 'provider',
    title:
      'A candidate finished for another reason than STOP (MAX_TOKENS, SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, OTHER…): its output stops short',
    dialects: ['gemini'],
  },
  'gemini.function-call-dropped': {
    severity: 'error',
    layer: 'provider',
    title:
      "A candidate finished with MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL or TOO_MANY_TOOL_CALLS: the model's tool call was dropped",
    dialects: ['gemini'],
  },
  'gemini.prompt-blocked': {
    severity: 'warning',
    layer: 'provider',
    title: 'promptFeedback.blockReason: the prompt was blocked and nothing was generated',
    dialects: ['gemini'],
  },
  'gemini.partial-args-incomplete': {
    severity: 'error',
    layer: 'provider',
    title: 'A function call streamed with partialArgs never got its last part (willContinue stayed true)',
    dialects: ['gemini'],
  },
  'gemini.after-finish': {
    severity: 'warning',
    layer: 'provider',
    title: 'Content arrived for a candidate after the chunk that finished it',
    dialects: ['gemini'],
  },
} as const satisfies Record<string, RuleInfo>;

export type GeminiRuleId = keyof typeof GEMINI_RULES;
