import type { StreamIds } from '../../envelope/unified';
import { isJsonObject, parseJson } from '../../json/values';
import { answerEntries, answersByName, answerText, emitClientPause } from '../provider/conversation';
import type { ProviderEventContext } from '../provider/event-context';
import { TextChunks } from '../provider/text-chunks';
import type { ClientToolAnswer, ClientToolContinuation } from '../types';

/*
 * Gemini runs its code execution and grounding, not the client's function declarations: a
 * response whose first candidate finishes well after `functionCall` parts waits for their
 * results. The stream's end says so as an `awaiting_frontend_tools` pause, and the answers
 * continue the run as the API's function-calling guide does: the request's `contents`, then
 * the model's content with its parts as they streamed (a call's `thoughtSignature` with it,
 * which the API checks), then a user content of one `functionResponse` per call.
 */

/** Characters of text kept for the model's content; past it the pause says it was not kept. */
const MAX_KEPT_CHARS = 1024 * 1024;

/** A function call of the candidate: the id the answer panel knows it by, and the one the part sent ('' for none). */
interface ClientCall {
  id: string;
  sentId: string;
  name: string;
  args: Record<string, unknown>;
}

type KeptPart = { text: TextChunks; thought: boolean } | { raw: Record<string, unknown> };

/** Whether a part is text alone (with `thought`, at most): consecutive ones are kept as one. */
const isPlainText = (part: Record<string, unknown>): boolean =>
  typeof part['text'] === 'string' && Object.keys(part).every((key) => key === 'text' || key === 'thought');

/**
 * The model's content of the first candidate as a client sends it back: its parts in order,
 * consecutive plain text (or thought) parts joined, every other part as it came, a call whose
 * arguments streamed (Vertex's `partialArgs`) as one call with them. Past MAX_KEPT_CHARS of
 * text it keeps only the calls, and says so.
 */
export class ModelParts {
  readonly calls: ClientCall[] = [];
  private parts: KeptPart[] = [];
  private chars = 0;
  private over = false;

  /** A part as the chunk had it (a streamed call's parts are not: `call` gives it whole). */
  part(part: Record<string, unknown>): void {
    if (isPlainText(part)) return this.text(part['text'] as string, part['thought'] === true);
    if (!this.over) this.parts.push({ raw: part });
  }

  /** A text part's text (`thought`: a thought summary): appended to the text run it continues. */
  text(text: string, thought = false): void {
    if (this.over || text === '') return;
    this.chars += text.length;
    if (this.chars > MAX_KEPT_CHARS) {
      this.over = true;
      this.parts = [];
      return;
    }
    const last = this.parts.at(-1);
    if (last && 'text' in last && last.thought === thought) last.text.push(text);
    else {
      const run = { text: new TextChunks(), thought };
      run.text.push(text);
      this.parts.push(run);
    }
  }

  /** A function call for the client; `part` the whole part of a streamed one, which `part()` did not keep. */
  call(call: ClientCall, part?: Record<string, unknown>): void {
    this.calls.push(call);
    if (part && !this.over) this.parts.push({ raw: part });
  }

  /** The parts in order, null when more than is kept. */
  content(): Record<string, unknown>[] | null {
    if (this.over) return null;
    return this.parts.map((kept) =>
      'raw' in kept ? kept.raw : { text: kept.text.text(), ...(kept.thought ? { thought: true } : {}) },
    );
  }
}

/** The response finished with calls for its client: the pause, with the model's content to send back. */
export function pauseOnClientCalls(ctx: ProviderEventContext, ids: StreamIds, model: ModelParts): void {
  const { calls } = model;
  if (calls.length === 0) return;
  const parts = model.content();
  const tools = calls.map((call) => ({ tool_use_id: call.id, name: call.name, input: call.args }));
  emitClientPause(ctx, ids, tools, {
    // Past what is kept, no content: a continuation says why it cannot send one.
    content: parts === null ? null : { role: 'model', parts },
    // The ids the parts sent (the panel's are made up where they sent none).
    sent_ids: Object.fromEntries(calls.map((call) => [call.id, call.sentId])),
  });
}

/** A function's response as the API wants it, an object: the answer's JSON object, else the text under `result` (`error` for an error). */
function responseOf(content: string, isError: boolean | undefined): Record<string, unknown> {
  if (isError) return { error: content };
  const parsed = parseJson(content);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : { result: content };
}

/**
 * The request that continues the run: the body that paused, its `contents` followed by the
 * model's content and a user content of one `functionResponse` per answer, in the order the
 * calls came, with the call's id where the call had one.
 */
export const geminiContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    const parsed = parseJson(previousBody);
    const body = parsed.ok ? parsed.value : undefined;
    if (!isJsonObject(body) || !Array.isArray(body['contents']))
      throw new Error(
        'The request that paused has no JSON body with a contents array, and Gemini continues a run by sending the conversation again.',
      );
    const content = isJsonObject(pause) ? pause['content'] : undefined;
    if (!isJsonObject(content))
      throw new Error(
        content === null
          ? `The response that paused streamed more than ${MAX_KEPT_CHARS / 1024 / 1024} MiB of text, more than the inspector keeps to send back; continue this run from your own client.`
          : 'The pause does not carry the model content its continuation sends back; decode it again.',
      );
    const sentIds = isJsonObject(pause) && isJsonObject(pause['sent_ids']) ? pause['sent_ids'] : {};
    const responses = answerEntries(calls, answers, (call, answer) => {
      const id = sentIds[call.toolUseId];
      return {
        functionResponse: {
          ...(typeof id === 'string' && id !== '' ? { id } : {}),
          name: call.name,
          response: responseOf(answer.content, answer.isError),
        },
      };
    });
    return JSON.stringify({
      ...body,
      contents: [...(body['contents'] as unknown[]), content, { role: 'user', parts: responses }],
    });
  },

  /** The `functionResponse`s of the conversation's last user content, by the tool each names. */
  answersIn(body, calls) {
    const parsed = parseJson(body);
    const contents = parsed.ok && isJsonObject(parsed.value) ? parsed.value['contents'] : undefined;
    if (!Array.isArray(contents)) return null;
    const last: unknown = contents.at(-1);
    const parts = isJsonObject(last) && Array.isArray(last['parts']) ? (last['parts'] as unknown[]) : [];
    return answersByName(
      calls,
      parts.flatMap((part) => {
        const response = isJsonObject(part) && isJsonObject(part['functionResponse']) ? part['functionResponse'] : null;
        return response ? [{ name: response['name'], answer: answerOfResponse(response['response']) }] : [];
      }),
    );
  },
};

/** The answer a `functionResponse`'s response was made from (responseOf, read back). */
function answerOfResponse(response: unknown): Omit<ClientToolAnswer, 'toolUseId'> {
  if (isJsonObject(response) && Object.keys(response).length === 1) {
    if ('error' in response) return { content: answerText(response['error']), isError: true };
    if ('result' in response) return { content: answerText(response['result']) };
  }
  return { content: answerText(response) };
}
