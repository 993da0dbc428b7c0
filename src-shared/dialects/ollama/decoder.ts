import { NO_EXTRAS, undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { errorMessage, isJsonObject, jsonKind } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import { objectField, ProviderEventContext, stringField, type WireEvent } from '../provider/event-context';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { countedCallbacks } from '../provider/counted-callbacks';
import { pauseOnClientCalls } from './client-calls';
import { CompactLineReader } from './compact-line';
import { OllamaResponse } from './response';
import { CONTENT, DONE_LINE, doneOutcome, summaryUsage, THINKING } from './vocabulary';

/**
 * Ollama's native streaming API (docs/protocols/ollama.md): `POST /api/chat` and `POST
 * /api/generate` answer with NDJSON, one chunk per line (the pipeline frames the lines:
 * pipeline/leg-framing.ts). Every line is a whole chunk; the one with `"done": true` ends the
 * response and carries its `done_reason`, counts and durations; there are no start or stop
 * events. A response is one message (`OllamaResponse`): its `message.content` or `response`
 * streams as text, `thinking` as thinking, each tool call arrives whole. An error comes as a
 * line `{"error": "…"}`, mid-stream or as the whole body, and ends the stream by error.
 */
export function createOllamaDecoder(outer: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const compact = new CompactLineReader(options.readShapes !== false);
  const { callbacks, emitted } = countedCallbacks(outer);
  let ctx: ProviderEventContext | undefined;
  let response: OllamaResponse | undefined;
  /** Responses begun so far (their number names their blocks). */
  let responses = 0;
  /** The line that ended the last response (its done line, or an error), while no other began. */
  let endedAt: number | undefined;
  let lastFrame: Frame | undefined;
  let lines = 0;
  let calls = 0;
  /**
   * The last response ended well after tool calls, and no response followed (a capture of a
   * tool loop holds the ones that answered them): the stream's end pauses on its calls.
   */
  let waiting: OllamaResponse | undefined;
  const reported = new Set<string>();

  function push(frame: Frame): void {
    lastFrame = frame;
    lines++;
    const at = (ctx ??= new ProviderEventContext(frame, callbacks, '')).next(frame, '');
    // A token of the open response's model, read without JSON.parse: all it does is stream.
    if (response !== undefined && compact.read(frame.data) && compact.model === response.model && compact.text !== '')
      return response.write(at, compact.channel, compact.text);
    const line = readLine(at);
    if (!line) return;
    if ('error' in line && line['error'] !== null && !('done' in line)) return apiError(at, line['error']);
    const emittedBefore = emitted();
    const current = responseFor(at, line);
    const model = line['model'];
    if (typeof model === 'string' && model !== current.model && !current.modelChangeReported) {
      current.modelChangeReported = true;
      at.report(
        'ollama.model-changed',
        `Line ${at.frame.seq} names the model ${jsonText(model)}, but its response began with ${jsonText(current.model)}: one response comes from one model, so two streams were mixed (a proxy, a capture); decoded as one response.`,
      );
    }
    const message = objectField(line, 'message');
    // The line's logprobs are its tokens': they go with its answer text, or its thinking when it has none.
    const tokens = tokenExtras(line);
    const content = typeof line['response'] === 'string' ? line['response'] : stringField(message, 'content');
    current.write(at, THINKING, textOf(line, message, 'thinking'), content === '' ? tokens : NO_EXTRAS);
    current.write(at, CONTENT, content, tokens);
    toolCalls(at, current, message['tool_calls']);
    if (line['done'] === true) return done(at, current, line);
    if (emitted() === emittedBefore) at.wire('chunk', line, unified('stream.message_delta', current.ids()));
  }

  /** The line's JSON object, when it is a chunk; reported and kept undecoded when it is not. */
  function readLine(at: ProviderEventContext): WireEvent | undefined {
    let value: unknown;
    try {
      value = JSON.parse(at.frame.data);
    } catch (error) {
      return invalid(at, `is not valid JSON (${errorMessage(error)})`);
    }
    if (!isJsonObject(value)) return invalid(at, `is a JSON ${jsonKind(value)}, not a chunk object`);
    if ('error' in value || typeof value['done'] === 'boolean' || 'message' in value || 'response' in value)
      return value;
    return invalid(at, 'is a JSON object with neither "done", "message", "response" nor "error"');
  }

  function invalid(at: ProviderEventContext, what: string): undefined {
    at.report(
      'provider.invalid-event',
      `Line ${at.frame.seq} ${what}, so it is no Ollama chunk; kept undecoded: ${previewText(at.frame.data)}`,
    );
    at.emit(undecodedParts(at.frame));
    return undefined;
  }

  /** The response this line belongs to: the open one, or a new one that this line begins. */
  function responseFor(at: ProviderEventContext, line: WireEvent): OllamaResponse {
    if (response) return response;
    if (endedAt !== undefined) {
      at.report(
        'ollama.after-done',
        `Line ${at.frame.seq} comes after line ${endedAt} ended the response: Ollama answers a request with one response and then closes the stream, so a client stops reading there. Decoded as a further response (a capture may hold several), which must end with its own done line.`,
      );
      endedAt = undefined;
      callbacks.onStreamResumed?.();
    }
    waiting = undefined;
    response = new OllamaResponse(responses++, stringField(line, 'model'), at.frame.receivedAt);
    at.wire('response', line, unified('stream.message_start', response.ids(), { phase: 'started' }));
    return response;
  }

  function toolCalls(at: ProviderEventContext, current: OllamaResponse, list: unknown): void {
    if (list === undefined || list === null) return;
    if (!Array.isArray(list)) {
      reportOnce(
        at,
        'tool_calls:non-array',
        `Line ${at.frame.seq} has tool_calls that are a JSON ${jsonKind(list)}, not an array; kept on the line's event.`,
      );
      return;
    }
    for (const call of list) {
      if (isJsonObject(call)) current.toolCall(at, call, () => `call_${calls++}`);
      else
        reportOnce(
          at,
          'tool_call:non-object',
          `A tool call in line ${at.frame.seq} is a JSON ${jsonKind(call)}, not an object; kept on the line's event.`,
        );
    }
  }

  /** The done line: the response's blocks close, its stop reason and counts are its summary's. */
  function done(at: ProviderEventContext, current: OllamaResponse, line: WireEvent): void {
    current.close(at);
    const reason = stringField(line, 'done_reason');
    let outcome = reason === '' ? 'completed' : doneOutcome(reason);
    if (outcome === undefined) {
      reportOnce(
        at,
        `done_reason:${reason}`,
        `Line ${at.frame.seq} ends the response with done_reason ${jsonText(reason)}, which this version does not know; taken as the end of its output.`,
      );
      outcome = 'completed';
    }
    const usage = summaryUsage(line);
    const clock = current.clock;
    clock.status = outcome;
    if (reason !== '') clock.stopReason = reason;
    clock.usage = usage;
    const { message: _message, response: _response, thinking: _thinking, ...fields } = line;
    at.wire(
      'done',
      fields,
      unified('stream.message_stop', current.ids(), {
        stop_reason: reason === '' ? undefined : reason,
        phase: outcome,
        usage,
      }),
    );
    let incomplete: string | undefined;
    if (outcome === 'incomplete') {
      clock.incompleteDetails = { reason };
      incomplete = `done_reason ${jsonText(reason)} (the num_predict limit or the context length)`;
      at.report(
        'provider.response-incomplete',
        `Line ${at.frame.seq} ends the response with done_reason ${jsonText(reason)}: the token limit (num_predict) or the context length cut its output short.`,
      );
    }
    current.summarise(at);
    waiting = outcome === 'completed' && current.calls.length > 0 ? current : undefined;
    response = undefined;
    endedAt = at.frame.seq;
    callbacks.onStreamEnd?.({
      event: reason === '' ? '"done": true' : `done_reason ${reason}`,
      ...(incomplete !== undefined ? { incomplete } : {}),
    });
  }

  /** An error line (`{"error": "…"}`): the response ends in failure, its open blocks unfinished. */
  function apiError(at: ProviderEventContext, error: unknown): void {
    const text = typeof error === 'string' ? error : jsonText(error);
    // Before any output, a file cannot say whether the server accepted the request and then
    // failed, or refused it (Ollama answers an unknown model with a 404 and this body).
    const first = lines === 1 ? ' as its first line, before any output' : '';
    at.report('provider.api-error', `Ollama sent an error in line ${at.frame.seq}${first}: ${text}`);
    at.emit(
      { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
      unified('stream.error', response?.ids() ?? {}, { error, phase: 'failed' }),
    );
    if (response) {
      response.clock.status = 'failed';
      response.clock.error = error;
      response.summarise(at);
      response = undefined;
    }
    endedAt = at.frame.seq;
    callbacks.onStreamEnd?.({ event: 'error', error: text });
  }

  function reportOnce(at: ProviderEventContext, key: string, text: string): void {
    if (reported.has(key)) return;
    reported.add(key);
    at.report('provider.unknown-event', `${text} Later ones are not reported again.`);
  }

  return {
    id: 'ollama',
    push,
    end() {
      if (waiting && lastFrame && ctx) pauseOnClientCalls(ctx.next(lastFrame, ''), waiting);
      const current = response;
      if (!current || !lastFrame || !ctx) return;
      callbacks.onDiagnostic({
        rule: 'provider.missing-terminal',
        message: `The stream ended without ${DONE_LINE}: the response was cut off or the connection dropped.`,
        at: { byteStart: lastFrame.byteEnd },
      });
      // What streamed stays open (its blocks unfinished): the summary says the response was cut.
      current.clock.status = 'cut';
      current.summarise(ctx.next(lastFrame, ''));
      response = undefined;
    },
  };
}

/** What a line says of its tokens besides their text: its `logprobs` (requested with `logprobs: true`). */
function tokenExtras(line: WireEvent): Record<string, unknown> {
  const logprobs = line['logprobs'];
  return logprobs === undefined || logprobs === null ? NO_EXTRAS : { logprobs };
}

/** A text field of the chunk: `/api/generate` puts it on the line, `/api/chat` in its message. */
function textOf(line: WireEvent, message: WireEvent, key: string): string {
  const value = line[key] ?? message[key];
  return typeof value === 'string' ? value : '';
}
