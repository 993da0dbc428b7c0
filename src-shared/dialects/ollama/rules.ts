import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The Ollama dialect's own rules (docs/diagnostics.md, "Ollama"). What it shares with the
 * other provider APIs is reported with their `provider.*` rules: a stream without its done
 * line (`provider.missing-terminal`), an error line (`provider.api-error`), `done_reason`
 * `length` (`provider.response-incomplete`), tool arguments that are no object
 * (`provider.tool-args-invalid`) and a line that is no chunk (`provider.invalid-event`).
 */
export const OLLAMA_RULES = {
  'ollama.after-done': {
    severity: 'warning',
    layer: 'provider',
    title:
      'A line came after the line that ended the response (its "done": true line, or an error): Ollama answers one request with one response',
    dialects: ['ollama'],
  },
  'ollama.model-changed': {
    severity: 'warning',
    layer: 'provider',
    title: 'A line names another model than the first line of its response',
    dialects: ['ollama'],
  },
} as const satisfies Record<string, RuleInfo>;
