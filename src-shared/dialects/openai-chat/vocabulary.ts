import type { ContentChannel, DeltaKind } from '../../envelope/unified';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';

/**
 * The words of a Chat Completions chunk (docs/protocols/openai-chat.md): the streamed text
 * channels of a choice's delta, what a finish_reason says about the output, and the delta
 * fields the OpenAI-compatible servers put their reasoning in.
 */

/** A text channel of a choice: the envelope type its deltas stream as, and its unified words. */
export interface StreamedChannel {
  readonly kind: EnvelopeKind;
  readonly channel: ContentChannel;
  readonly delta: DeltaKind;
  /** The name its block is given (its first envelope's `name`), for a channel a kind alone does not tell apart. */
  readonly name?: string;
}

export const TEXT: StreamedChannel = { kind: KIND.text, channel: 'output_text', delta: 'text_delta' };
export const REASONING: StreamedChannel = { kind: KIND.thinking, channel: 'reasoning', delta: 'reasoning_delta' };
export const REFUSAL: StreamedChannel = { kind: KIND.refusal, channel: 'refusal', delta: 'refusal_delta' };
/**
 * The transcript of a spoken answer (`delta.audio.transcript`): what the model said, so text,
 * in a block of its own, named so it is told apart from the written answer.
 */
export const TRANSCRIPT: StreamedChannel = {
  kind: KIND.text,
  channel: 'audio_transcript',
  delta: 'audio_transcript_delta',
  name: 'audio transcript',
};

/** The delta members each channel's text is read from, for learning where it is. */
export const CHANNEL_KEYS = new Map<StreamedChannel, readonly string[]>([
  [TEXT, ['content']],
  [REASONING, ['reasoning_content', 'reasoning']],
  [REFUSAL, ['refusal']],
  [TRANSCRIPT, ['transcript']],
]);

/**
 * `object` values of the chunks this dialect reads: empty from some servers, `chat.completion`
 * from those that send the whole message, and Perplexity's last chunk `chat.completion.done`
 * (its "Stream Mode" guide). Another is reported once (provider.unknown-event) and read the same way.
 */
export const KNOWN_OBJECTS = new Set(['chat.completion.chunk', '', 'chat.completion', 'chat.completion.done']);

/**
 * What a finish_reason says of the choice's output: `completed` (the model stopped, or called
 * tools), `incomplete` (something cut it short, CUT_SHORT_BY: `provider.response-incomplete`),
 * `failed` (OpenRouter's `error`, with an `error` member beside it).
 */
export type FinishOutcome = 'completed' | 'incomplete' | 'failed';

/**
 * The finish_reasons of an output cut short, and by what: a token limit, a content filter, or
 * DeepSeek's `insufficient_system_resource` (its API documents it: the inference system ran out
 * of resources and stopped the output). OpenAI-compatible servers name some their own way:
 * `max_tokens` (the token limit, as Anthropic's stop_reason of that name, which proxies pass
 * on), Mistral's `model_length` (its API's enum: the model's context length reached), and
 * vLLM's `abort` (the engine finished the request unasked, at a shutdown, a pause or a
 * scale-down, then sent `[DONE]` as for a whole answer: vllm-project/vllm#57082).
 */
export const CUT_SHORT_BY: Readonly<Record<string, string>> = {
  length: 'the token limit',
  max_tokens: 'the token limit',
  model_length: "the model's context length",
  content_filter: 'a content filter',
  insufficient_system_resource: "the server's inference resources running out",
  abort: 'the server aborting the request',
};

const FINISH_OUTCOMES: Readonly<Record<string, FinishOutcome>> = {
  stop: 'completed',
  tool_calls: 'completed',
  function_call: 'completed',
  // Hugging Face TGI's names: the model's end-of-sequence token, or a stop sequence of the request.
  eos_token: 'completed',
  stop_sequence: 'completed',
  ...Object.fromEntries(Object.keys(CUT_SHORT_BY).map((reason) => [reason, 'incomplete' as const])),
  error: 'failed',
};

/**
 * Gemini's OpenAI-compatible API ends a choice whose function call it dropped with
 * `function_call_filter: <Gemini's finishReason>` (`MALFORMED_FUNCTION_CALL`,
 * `UNEXPECTED_TOOL_CALL`…), with no content: the call is lost, as the native API's same reason
 * says (docs/protocols/gemini.md).
 */
const DROPPED_CALL = 'function_call_filter:';

/** The outcome of a finish_reason; undefined for one this version does not know (kept, reported once). */
export function finishOutcome(reason: string): FinishOutcome | undefined {
  if (reason.startsWith(DROPPED_CALL)) return 'failed';
  return Object.hasOwn(FINISH_OUTCOMES, reason) ? FINISH_OUTCOMES[reason] : undefined;
}

/** Why a choice that finished `failed` failed, as its finding says it. */
export function failedBecause(reason: string): string {
  return reason.startsWith(DROPPED_CALL)
    ? `the API dropped the model's function call (${reason.slice(DROPPED_CALL.length).trim()})`
    : 'no error member says why';
}

/**
 * The reasoning text of a delta: DeepSeek, xAI and vLLM send `reasoning_content`, OpenRouter,
 * Ollama and newer vLLM `reasoning`; a server that sends both sends the same text twice, so
 * `reasoning_content` is taken when it has text.
 */
export function reasoningText(delta: Record<string, unknown>): string {
  const content = delta['reasoning_content'];
  if (typeof content === 'string' && content !== '') return content;
  const reasoning = delta['reasoning'];
  return typeof reasoning === 'string' ? reasoning : '';
}

/**
 * The pieces of a `content` that is an array of parts, as Mistral's reasoning models send it:
 * `{type: "text", text}` is output text, `{type: "thinking", thinking: [{type: "text", text}]}`
 * reasoning. Parts of other types carry no text and are left to the wire event.
 */
export function contentParts(parts: readonly unknown[]): { channel: StreamedChannel; text: string }[] {
  const out: { channel: StreamedChannel; text: string }[] = [];
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    if (part['type'] === 'text' && typeof part['text'] === 'string') out.push({ channel: TEXT, text: part['text'] });
    else if (part['type'] === 'thinking') {
      const thinking = part['thinking'];
      const texts = Array.isArray(thinking) ? thinking : [thinking];
      for (const piece of texts) {
        const text = typeof piece === 'string' ? piece : isJsonObject(piece) ? piece['text'] : undefined;
        if (typeof text === 'string') out.push({ channel: REASONING, text });
      }
    }
  }
  return out;
}

/**
 * The usage of a chunk: its `usage` member, or the one Moonshot puts inside a choice beside its
 * finish_reason (with, or without, a usage chunk after it), or Groq's `x_groq.usage` on its
 * finishing chunk (compound models send it there only, without a `usage` member).
 */
export function chunkUsage(event: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isJsonObject(event['usage'])) return event['usage'];
  const choices = event['choices'];
  if (Array.isArray(choices))
    for (const choice of choices) if (isJsonObject(choice) && isJsonObject(choice['usage'])) return choice['usage'];
  const groq = event['x_groq'];
  return isJsonObject(groq) && isJsonObject(groq['usage']) ? groq['usage'] : undefined;
}

/**
 * `prompt_tokens` and `completion_tokens` under the names the message summary reads, beside the
 * usage as sent. The output tokens are what the model generated: xAI leaves the reasoning tokens
 * out of `completion_tokens` (its `total_tokens` is prompt, completion and reasoning tokens), so
 * they are added back; the others count them in `completion_tokens` already.
 */
export function summaryUsage(usage: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...usage };
  const prompt = usage['prompt_tokens'];
  const completion = usage['completion_tokens'];
  if (typeof prompt === 'number') out['input_tokens'] = prompt;
  if (typeof completion !== 'number') return out;
  const details = usage['completion_tokens_details'];
  const reasoning = isJsonObject(details) ? details['reasoning_tokens'] : undefined;
  const apart =
    typeof reasoning === 'number' &&
    reasoning > 0 &&
    typeof prompt === 'number' &&
    usage['total_tokens'] === prompt + completion + reasoning;
  out['output_tokens'] = apart ? completion + reasoning : completion;
  return out;
}

/**
 * The categories an Azure `content_filter_results` object says were filtered out: a category
 * object with `filtered: true` (`hate`, `protected_material_text`, the newer
 * `custom_blocklists: {filtered, details}`), or a list of blocklist verdicts with one
 * (`custom_blocklists: [{filtered: true, id}]`, named with the lists' ids).
 */
export function filteredCategories(results: unknown): string[] {
  if (!isJsonObject(results)) return [];
  const out: string[] = [];
  for (const key in results) {
    const category = results[key];
    if (isJsonObject(category) && category['filtered'] === true) out.push(key);
    else if (Array.isArray(category)) {
      const ids: string[] = [];
      for (const entry of category)
        if (isJsonObject(entry) && entry['filtered'] === true)
          ids.push(typeof entry['id'] === 'string' ? entry['id'] : jsonText(entry['id']));
      if (ids.length > 0) out.push(`${key} (${ids.join(', ')})`);
    }
  }
  return out;
}

/** Whether an Azure `content_filter_results` object says some category was filtered out. */
export const filtered = (results: unknown): boolean => filteredCategories(results).length > 0;

/**
 * An API error as a stream sends it, in one line: `{message, type, code}` (OpenAI's error
 * object), `{code, message}` (OpenRouter's), or plain text.
 */
export function apiErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (!isJsonObject(error)) return jsonText(error);
  const message = typeof error['message'] === 'string' ? error['message'] : jsonText(error);
  const kind = [error['type'], error['code']].filter((v) => typeof v === 'string' || typeof v === 'number');
  return kind.length > 0 ? `${kind.join(' ')}: ${message}` : message;
}
