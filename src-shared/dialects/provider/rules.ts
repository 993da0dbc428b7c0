import type { RuleInfo } from '../../diagnostics/rules';
import type { DialectId } from '../registry';

/** The provider API dialects: each maps its wire onto the unified event surface with the helpers of this folder. */
const PROVIDERS: readonly DialectId[] = ['anthropic-messages', 'openai-responses'];
/** The rules whose meaning holds for a Chat Completions stream too (docs/protocols/openai-chat.md). */
const PROVIDERS_AND_CHAT: readonly DialectId[] = [...PROVIDERS, 'openai-chat'];
/** The rules about streamed items and terminal events whose meaning holds for AG-UI's runs too (docs/protocols/ag-ui.md). */
const PROVIDERS_AND_AG_UI: readonly DialectId[] = [...PROVIDERS, 'ag-ui'];
const PROVIDERS_CHAT_AND_AG_UI: readonly DialectId[] = [...PROVIDERS_AND_CHAT, 'ag-ui'];
/** The AI SDK's streams have the same parts: messages, text and tool calls by id, an error part (docs/protocols/ai-sdk-ui.md). */
const withAiSdk = (dialects: readonly DialectId[]): readonly DialectId[] => [...dialects, 'ai-sdk-ui'];
/** Ollama's native API: one message per response, whole tool calls, an error line (docs/protocols/ollama.md). */
const withOllama = (dialects: readonly DialectId[]): readonly DialectId[] => [...dialects, 'ollama'];

/**
 * The rules of the provider APIs streamed directly (docs/diagnostics.md), reported through the
 * helpers of this folder; spread into the catalogue (diagnostics/rules.ts). A dialect whose
 * finding means the same thing reuses a rule by adding its id to `PROVIDERS` or to the rule's `dialects`.
 */
export const PROVIDER_RULES = {
  'provider.api-error': {
    severity: 'error',
    layer: 'provider',
    title: 'The API sent an error event',
    dialects: withOllama(withAiSdk([...PROVIDERS_AND_CHAT, 'gemini'])),
  },
  'provider.response-failed': {
    severity: 'error',
    layer: 'provider',
    title: 'The response failed',
    dialects: PROVIDERS,
  },
  'provider.response-incomplete': {
    severity: 'warning',
    layer: 'provider',
    title: 'The response ended incomplete (token limit, content filter…)',
    dialects: withOllama(withAiSdk(PROVIDERS_AND_CHAT)),
  },
  'provider.missing-terminal': {
    severity: 'error',
    layer: 'provider',
    title:
      "Stream ended without its terminal event (message_stop, response.completed/failed/incomplete, RUN_FINISHED/RUN_ERROR, Gemini's finishReason, the AI SDK's finish, Ollama's done line)",
    dialects: withOllama(withAiSdk([...PROVIDERS_AND_AG_UI, 'gemini'])),
  },
  'provider.block-not-started': {
    severity: 'error',
    layer: 'provider',
    title: 'Delta or stop for a block, part or item that was never started',
    dialects: withAiSdk(PROVIDERS_CHAT_AND_AG_UI),
  },
  'provider.block-started-twice': {
    severity: 'warning',
    layer: 'provider',
    title: 'Block, part or item started again while open',
    dialects: withAiSdk(PROVIDERS_CHAT_AND_AG_UI),
  },
  'provider.delta-after-stop': {
    severity: 'error',
    layer: 'provider',
    title: 'Delta or stop after the block, part or item was done',
    dialects: withAiSdk(PROVIDERS_CHAT_AND_AG_UI),
  },
  'provider.block-not-stopped': {
    severity: 'warning',
    layer: 'provider',
    title: 'Block, part or item never got its stop/done event',
    dialects: withAiSdk(PROVIDERS_AND_AG_UI),
  },
  'provider.next-message': {
    severity: 'info',
    layer: 'provider',
    title:
      'A new message (response, run) starts after the previous one ended: the capture holds several, decoded one after another',
    dialects: withAiSdk([...PROVIDERS_AND_CHAT, 'json-rpc', 'ag-ui', 'gemini']),
  },
  'provider.sequence-gap': {
    severity: 'error',
    layer: 'provider',
    title: 'sequence_number skipped or went backwards',
    dialects: PROVIDERS,
  },
  'provider.tool-args-invalid': {
    severity: 'error',
    layer: 'provider',
    title: 'Tool call arguments do not parse as JSON once complete',
    dialects: withOllama(withAiSdk([...PROVIDERS_CHAT_AND_AG_UI, 'gemini'])),
  },
  'provider.annotation-out-of-range': {
    severity: 'warning',
    layer: 'provider',
    title: 'Annotation offsets fall outside the text they annotate',
    dialects: PROVIDERS,
  },
  'provider.unknown-event': {
    severity: 'info',
    layer: 'provider',
    title: 'Event, item, block or delta type not known to this version; kept and shown',
    dialects: withOllama(withAiSdk([...PROVIDERS_CHAT_AND_AG_UI, 'gemini'])),
  },
  'provider.invalid-event': {
    severity: 'error',
    layer: 'provider',
    title: 'Event is not a JSON object with a string type; kept undecoded',
    dialects: withOllama(withAiSdk([...PROVIDERS_AND_AG_UI, 'gemini'])),
  },
} as const satisfies Record<string, RuleInfo>;
