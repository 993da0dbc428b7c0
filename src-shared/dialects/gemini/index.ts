import { isJsonObject } from '../../json/values';
import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { geminiContinuation } from './client-calls';
import { createGeminiDecoder } from './decoder';

/**
 * Whether a frame is a Gemini `GenerateContentResponse` chunk, from its own markers only:
 * `candidates` whose first entry has `content.parts` or a `finishReason`; a `promptFeedback`;
 * `usageMetadata` with a `modelVersion` or its own `promptTokenCount` (a chunk of usage alone);
 * or an error body in Google's shape (`{"error": {"code": <number>, "status": <string>, …}}`,
 * google.rpc.Status). No other dialect's event has these (they all name a `type` or an `object`).
 */
export function isGeminiChunk(frame: SniffedFrame): boolean {
  const object = frame.json();
  if (!object || 'type' in object || 'object' in object) return false;
  const candidates = object['candidates'];
  if (Array.isArray(candidates)) {
    const first: unknown = candidates[0];
    if (isJsonObject(first)) {
      const content = first['content'];
      if (isJsonObject(content) && Array.isArray(content['parts'])) return true;
      if (typeof first['finishReason'] === 'string') return true;
    }
  }
  if (isJsonObject(object['promptFeedback'])) return true;
  const usage = object['usageMetadata'];
  if (
    isJsonObject(usage) &&
    (typeof object['modelVersion'] === 'string' || typeof usage['promptTokenCount'] === 'number')
  )
    return true;
  const error = object['error'];
  return (
    isJsonObject(error) &&
    typeof error['code'] === 'number' &&
    typeof error['status'] === 'string' &&
    Object.keys(object).length === 1
  );
}

/**
 * Gemini's `streamGenerateContent`, over SSE (`?alt=sse`, CRLF framing) or as one streamed
 * JSON array (without `alt=sse`; pipeline/leg-framing.ts frames it): each frame is a whole
 * `GenerateContentResponse`, and the chunk with a `finishReason` ends it (no `[DONE]`).
 */
export const geminiDialect: DialectModule<'gemini'> = {
  id: 'gemini',
  label: 'Gemini streamGenerateContent',
  detect: isGeminiChunk,
  create: createGeminiDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'a chunk with a finishReason',
  // A capture whose first chunks show none of the markers (an error body, say) is still the
  // endpoint's stream: Gemini API and Vertex AI alike end the path in `:streamGenerateContent`.
  evidence: { urlPaths: [':streamGenerateContent'] },
  // Gemini runs no function the client declares: a response finished after calls waits for it (client-calls.ts).
  clientTools: geminiContinuation,
};
