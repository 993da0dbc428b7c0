import type { DialectModule } from '../types';
import { createOpenAiChatDecoder } from './decoder';
import { openAiChatContinuation } from './client-calls';
import { isBareErrorEvent, isChatCompletionEvent } from './detect';

/**
 * The OpenAI Chat Completions stream, as OpenAI and the OpenAI-compatible servers (vLLM,
 * Ollama's `/v1`, OpenRouter, Groq, DeepSeek, xAI, Mistral, Azure, LiteLLM) send it:
 * data-only `chat.completion.chunk` events ending at `data: [DONE]`.
 */
export const openAiChatDialect: DialectModule<'openai-chat'> = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  detect: isChatCompletionEvent,
  claimsOnlyFirst: isBareErrorEvent,
  create: createOpenAiChatDecoder,
  syntax: 'json',
  terminator: 'done-frame',
  // OpenAI's /v1/chat/completions, Azure's /openai/deployments/…/chat/completions, OpenRouter's /api/v1/chat/completions.
  evidence: { urlPaths: ['/chat/completions'] },
  // The API runs no tool: a finish on tool_calls waits for the client (client-calls.ts).
  clientTools: openAiChatContinuation,
};
