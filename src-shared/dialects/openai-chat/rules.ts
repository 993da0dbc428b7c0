import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The OpenAI Chat Completions dialect's own rules (docs/diagnostics.md, "OpenAI Chat
 * Completions"). What it shares with the other provider APIs (an error in the stream, tool
 * arguments that do not parse, a fragment for a call never started, content after a choice
 * finished, a token limit or filter that cut the output) is reported with their `provider.*`
 * rules; a stream without `data: [DONE]` is the pipeline's `stream.missing-done`.
 */
export const OPENAI_CHAT_RULES = {
  'openai-chat.invalid-chunk': {
    severity: 'error',
    layer: 'provider',
    title:
      'Data is JSON but no chat.completion.chunk (no choices array, usage or error), kept undecoded; or a part of a chunk has the wrong shape, that part kept undecoded and the rest decoded',
    dialects: ['openai-chat'],
  },
  'openai-chat.tool-calls-not-array': {
    severity: 'warning',
    layer: 'provider',
    title: "A choice's tool_calls is one call object, not an array (TGI 2.x): read as an array of that one call",
    dialects: ['openai-chat'],
  },
  'openai-chat.no-finish-reason': {
    severity: 'warning',
    layer: 'provider',
    title: 'A choice got no finish_reason before the stream ended: its output is left open',
    dialects: ['openai-chat'],
  },
} as const satisfies Record<string, RuleInfo>;
