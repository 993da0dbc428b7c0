import { isJsonObject } from '../../json/values';
import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { ollamaContinuation } from './client-calls';
import { createOllamaDecoder } from './decoder';
import { DONE_LINE } from './vocabulary';

const OPEN_BRACE = 0x7b;

/**
 * Whether a frame is an Ollama chunk, by the members every chunk of `/api/chat` and
 * `/api/generate` has together: a string `model`, a string `created_at`, a boolean `done`,
 * and a `message` object (chat) or a `response` string (generate), or, on a done line that
 * leaves its message out, a string `done_reason`. No other dialect's event has `created_at`
 * with `done`; objects with a `type`, an `object` or `choices` (the other providers' events)
 * are never claimed. An error line (`{"error": "…"}`) names no protocol: it is decoded as
 * Ollama's only within an Ollama stream, or where the URL names the API (`evidence`).
 */
export function isOllamaChunk(frame: SniffedFrame): boolean {
  const data = frame.data;
  if (data.charCodeAt(frame.start) !== OPEN_BRACE || !data.includes('"created_at"') || !data.includes('"done"'))
    return false;
  const object = frame.json();
  if (object === undefined || 'type' in object || 'object' in object || 'choices' in object) return false;
  if (typeof object['model'] !== 'string' || typeof object['created_at'] !== 'string') return false;
  const done = object['done'];
  if (typeof done !== 'boolean') return false;
  return (
    isJsonObject(object['message']) ||
    typeof object['response'] === 'string' ||
    (done && typeof object['done_reason'] === 'string')
  );
}

/**
 * Ollama's native API, `POST /api/chat` and `POST /api/generate` (docs/protocols/ollama.md):
 * NDJSON, one whole chunk per line, the line with `"done": true` ending the response. Its
 * OpenAI-compatible `/v1/chat/completions` is the `openai-chat` dialect.
 */
export const ollamaDialect: DialectModule<'ollama'> = {
  id: 'ollama',
  label: 'Ollama native API',
  detect: isOllamaChunk,
  create: createOllamaDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: DONE_LINE,
  // A body that is only an error line says nothing of its protocol; `/api/generate` is Ollama's
  // own path. Not `/api/chat`: the AI SDK's routes live there too (the ai-sdk-ui dialect).
  evidence: { urlPaths: ['/api/generate'] },
  // Ollama runs no tool: a response that ends after tool calls waits for the client (client-calls.ts).
  clientTools: ollamaContinuation,
};
