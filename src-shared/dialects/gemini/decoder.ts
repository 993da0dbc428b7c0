import { undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { errorMessage, isJsonObject, jsonKind } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import {
  integerField,
  objectField,
  ProviderEventContext,
  stringField,
  type WireEvent,
} from '../provider/event-context';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { Candidate, type CandidateHost } from './candidate';
import { countedCallbacks } from '../provider/counted-callbacks';
import { emitSources, emitUrlContext } from './grounding';
import { pauseOnClientCalls } from './client-calls';
import { onlyText, RecentTextChunk } from './recent-text';
import { handsOffToCode } from './code-handoff';
import { blockedBy } from './safety-ratings';
import { finishPhase, finishRule, normalisedUsage } from './vocabulary';
import { continues, usageOf, type Response } from './response';

/**
 * Gemini's `streamGenerateContent` (docs/protocols/gemini.md): every chunk is a whole
 * `GenerateContentResponse`, over SSE (`alt=sse`) or as the elements of one JSON array. There
 * is no terminal event: a candidate ends with the chunk that carries its `finishReason`, and
 * the stream is done once every candidate finished (or the prompt was blocked, or an error
 * body came). Each candidate is one message (`Candidate`), summed up in a `message` envelope
 * once its response is over (usage arrives on every chunk, and the last one counts).
 */
export function createGeminiDecoder(outer: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const { callbacks, emitted } = countedCallbacks(outer);
  let ctx: ProviderEventContext | undefined;
  let response: Response | undefined;
  let lastFrame: Frame | undefined;
  let chunks = 0;
  let ids = 0;
  const reported = new Set<string>();
  /**
   * The response's first candidate finished well, maybe after calls for its client, and no
   * response followed (a capture of a tool loop holds the ones that answered them): the
   * stream's end pauses on its calls (client-calls.ts).
   */
  let waiting: Candidate | undefined;
  const recent = new RecentTextChunk();
  const readShapes = options.readShapes !== false;
  const messages = new MessageSequence(callbacks, {
    message: 'response',
    start: 'a new responseId',
    terminal: 'finishReason',
  });
  const host: CandidateHost = {
    newId: (prefix) => `${prefix}_${ids++}`,
    reportOnce(at, key, message) {
      if (reported.has(key)) return;
      reported.add(key);
      at.report('provider.unknown-event', `${message} Later ones are not reported again.`);
    },
  };

  function push(frame: Frame): void {
    lastFrame = frame;
    const at = (ctx ??= new ProviderEventContext(frame, callbacks, '')).next(frame, response?.id ?? '');
    if (readShapes && response && !response.ended && recent.read(frame.data)) {
      const candidate = response.candidates.get(0);
      if (candidate && candidate.finishedAt === undefined) {
        // More of the answer, as the chunk learnt below: decoded as it would be, without JSON.parse.
        chunks++;
        response.usage = recent.usageText;
        candidate.textPart(at.next(frame, candidate.agent), recent.text);
        return;
      }
    }
    const chunk = readChunk(at);
    if (!chunk) return;
    chunks++;
    if (isJsonObject(chunk['error']) && !('candidates' in chunk)) return apiError(at, chunk);
    const emittedBefore = emitted();
    const current = responseFor(at, chunk);
    if (typeof chunk['modelVersion'] === 'string') current.model = chunk['modelVersion'];
    const usage = chunk['usageMetadata'];
    if (isJsonObject(usage)) current.usage = usage;
    const blockReason = stringField(objectField(chunk, 'promptFeedback'), 'blockReason');
    if (blockReason !== '') return promptBlocked(at, current, chunk, blockReason);
    const list = Array.isArray(chunk['candidates']) ? (chunk['candidates'] as unknown[]) : [];
    for (const [position, value] of list.entries()) candidateChunk(at, current, chunk, value, position);
    const text = onlyText(chunk);
    if (text !== undefined && current.candidates.get(0)?.finishedAt === undefined) recent.learn(frame.data, text);
    if (emitted() === emittedBefore)
      at.wire('chunk', chunk, unified('stream.message_delta', { response_id: current.id }));
    if (!current.ended && current.candidates.size > 0 && current.unfinished === 0) endResponse(at, current);
  }

  /** The chunk's JSON object; reported and kept undecoded when it is none. */
  function readChunk(at: ProviderEventContext): WireEvent | undefined {
    let value: unknown;
    try {
      value = JSON.parse(at.frame.data);
    } catch (error) {
      at.report(
        'provider.invalid-event',
        `Chunk ${at.frame.seq} is not valid JSON (${errorMessage(error)}); kept undecoded: ${previewText(at.frame.data)}`,
      );
      at.emit(undecodedParts(at.frame));
      return undefined;
    }
    if (isJsonObject(value)) return value;
    at.report(
      'provider.invalid-event',
      `Chunk ${at.frame.seq} is a JSON ${jsonKind(value)}, not a GenerateContentResponse object; kept undecoded: ${previewText(at.frame.data)}`,
    );
    at.emit(undecodedParts(at.frame));
    return undefined;
  }

  /** The response this chunk belongs to: the current one, or a new one (its first chunk starts it). */
  function responseFor(at: ProviderEventContext, chunk: WireEvent): Response {
    const id = stringField(chunk, 'responseId');
    if (response && continues(response, id)) return response;
    if (response && !response.ended) {
      messages.start(at, id, true);
      cut(at, response, `the next response began (chunk ${at.frame.seq})`);
    } else {
      messages.start(at, id, false);
      if (response) flushSummaries(at, response);
    }
    recent.forget();
    waiting = undefined;
    response = {
      id,
      model: stringField(chunk, 'modelVersion'),
      usage: undefined,
      candidates: new Map(),
      unfinished: 0,
      ended: false,
      failure: undefined,
      cutShort: undefined,
      reason: '',
      startedAt: at.frame.receivedAt,
    };
    at.next(at.frame, id);
    at.wire('response', chunk, unified('stream.message_start', { response_id: id }));
    return response;
  }

  function candidateChunk(
    at: ProviderEventContext,
    current: Response,
    chunk: WireEvent,
    value: unknown,
    position: number,
  ): void {
    if (!isJsonObject(value)) {
      host.reportOnce(
        at,
        'candidate:non-object',
        `A candidate in chunk ${at.frame.seq} is not an object; kept as a provider event.`,
      );
      return;
    }
    const index = integerField(value, 'index') ?? position;
    let candidate = current.candidates.get(index);
    if (!candidate) {
      candidate = new Candidate(
        index,
        index === 0 ? current.id : `${current.id}#${index}`,
        current.id,
        current.startedAt,
        host,
      );
      current.candidates.set(index, candidate);
      current.unfinished++;
    }
    at.next(at.frame, candidate.agent);
    const parts = objectField(value, 'content')['parts'];
    const reason = stringField(value, 'finishReason');
    if (
      candidate.finishedAt !== undefined &&
      !candidate.lateReported &&
      (reason !== '' || (Array.isArray(parts) && parts.some(hasContent)))
    ) {
      // Once: streams that send finishReason STOP on every chunk (Google's own SDK test data) would repeat it on each.
      candidate.lateReported = true;
      at.report(
        'gemini.after-finish',
        `Candidate ${index} of response ${current.id || '(no responseId)'} gets ${reason !== '' ? `another finishReason (${reason})` : 'content'} in chunk ${at.frame.seq}, after chunk ${candidate.finishedAt} finished it; decoded as part of it (later chunks like it are not reported again).`,
      );
    }
    if (Array.isArray(parts)) for (const part of parts) candidate.part(at, part);
    emitUrlContext(at, value, candidate);
    // Any chunk may cite (citationSources on the chunks before a RECITATION, grounding after the finish): each its own.
    emitSources(at, value, candidate);
    if (reason !== '' && handsOffToCode(parts, reason)) candidate.handoff = { chunk, value, reason, chunks };
    else if (reason !== '') finish(at, current, candidate, chunk, value, reason);
    // Content after the finish is decoded as part of the candidate, and complete in its chunk (its text may go on).
    else if (candidate.finishedAt !== undefined) candidate.closeAllButText(at, `the end of chunk ${at.frame.seq}`);
  }

  function finish(
    at: ProviderEventContext,
    current: Response,
    candidate: Candidate,
    chunk: WireEvent,
    value: WireEvent,
    reason: string,
  ): void {
    candidate.closeAllButText(at, `its finishReason (chunk ${at.frame.seq})`);
    if (candidate.finishedAt === undefined) {
      candidate.finishedAt = at.frame.seq;
      current.unfinished--;
    }
    current.reason = reason;
    // The first candidate is the one a client continues: it waits when it finished well after calls.
    if (candidate.index === 0) waiting = finishPhase(reason) === 'completed' ? candidate : undefined;
    candidate.clock.stopReason = reason;
    candidate.clock.status = finishPhase(reason);
    const rule = finishRule(reason);
    if (rule) {
      // Why, as the API says it: its finishMessage, the safety ratings that blocked the output.
      const why = [stringField(value, 'finishMessage'), blockedBy(value['safetyRatings'])].filter((w) => w !== '');
      const finished = `Candidate ${candidate.index} finished with ${reason}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
      at.report(
        rule,
        rule === 'gemini.function-call-dropped'
          ? `${finished}: the model's tool call was invalid and the API dropped it, so the client gets no call.`
          : `${finished}: its output stops short of its natural end.`,
      );
      const failed = finishPhase(reason) === 'failed';
      if (failed) current.failure ??= `finishReason ${reason}`;
      else current.cutShort ??= `candidate ${candidate.index} finished with finishReason ${reason}`;
      // A finishReason after the response ended (gemini.after-finish) counts too: the STOP its
      // end reported said the output was whole, and this one says otherwise.
      if (current.ended) lateEnd(reason, candidate.index, failed);
    }
    const { content: _content, ...fields } = value;
    at.wire(
      'finish',
      { ...fields, ...(chunk['usageMetadata'] !== undefined ? { usageMetadata: chunk['usageMetadata'] } : {}) },
      unified('stream.message_stop', candidate.ids(), {
        stop_reason: reason,
        phase: finishPhase(reason),
        ...(current.usage ? { usage: normalisedUsage(usageOf(current)) } : {}),
      }),
    );
  }

  function promptBlocked(at: ProviderEventContext, current: Response, chunk: WireEvent, reason: string): void {
    const feedback = objectField(chunk, 'promptFeedback');
    const said = stringField(feedback, 'blockReasonMessage');
    const blocked = blockedBy(feedback['safetyRatings']);
    at.report(
      'gemini.prompt-blocked',
      `The prompt was blocked (promptFeedback.blockReason ${reason}${said ? `: ${said}` : ''}${blocked ? `; ${blocked}` : ''}); nothing was generated.`,
    );
    at.wire(
      'promptFeedback',
      chunk,
      unified('stream.message_stop', { response_id: current.id }, { stop_reason: reason, phase: 'failed' }),
    );
    soleSummary(current, 'blocked').clock.stopReason = reason;
    current.failure = `prompt blocked: ${reason}`;
    current.reason = `blocked (${reason})`;
    endResponse(at, current);
  }

  /** An error body in the stream (`{"error": {code, message, status}}`): the response ends in failure. */
  function apiError(at: ProviderEventContext, chunk: WireEvent): void {
    waiting = undefined;
    const error = objectField(chunk, 'error');
    const status =
      stringField(error, 'status') || (typeof error['code'] === 'number' ? String(error['code']) : 'error');
    const text = `${status}: ${stringField(error, 'message') || jsonText(error)}`;
    at.report(
      'provider.api-error',
      `The API sent an error${chunks === 1 ? ' as the first chunk' : ''} (code ${jsonText(error['code'] ?? null)}): ${text}`,
    );
    at.emit(
      { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
      unified('stream.error', { response_id: response?.id ?? '' }, { error, phase: 'failed' }),
    );
    if (response && !response.ended) {
      for (const candidate of response.candidates.values()) {
        candidate.clock.status = 'failed';
        candidate.clock.error = error;
      }
      messages.end(at);
      response.ended = true;
      flushSummaries(at, response);
    } else messages.end(at);
    callbacks.onStreamEnd?.({ event: 'error', error: text });
  }

  function endResponse(at: ProviderEventContext, current: Response): void {
    current.ended = true;
    messages.end(at);
    const event = `finishReason ${current.reason}`;
    callbacks.onStreamEnd?.({
      event,
      ...(current.failure !== undefined ? { error: current.failure } : {}),
      ...(current.cutShort !== undefined ? { incomplete: current.cutShort } : {}),
    });
  }

  /** The end of a response already ended, as a later finishReason tells it: the stream ends as the worse says. */
  function lateEnd(reason: string, index: number, failed: boolean): void {
    const why = `candidate ${index} finished again with finishReason ${reason}`;
    callbacks.onStreamEnd?.({ event: `finishReason ${reason}`, ...(failed ? { error: why } : { incomplete: why }) });
  }

  function soleSummary(current: Response, status: string): Candidate {
    const summary = Candidate.summaryOnly(current.id, current.startedAt, host, status);
    current.candidates.set(0, summary);
    return summary;
  }

  /** A response that ends without its finishing chunk: every candidate is cut (usage alone still gets its summary). */
  function cut(at: ProviderEventContext, current: Response, why: string): void {
    if (current.candidates.size === 0 && current.usage) soleSummary(current, 'cut');
    for (const candidate of current.candidates.values()) {
      if (candidate.finishedAt !== undefined) continue;
      candidate.endCall(at, why);
      candidate.clock.status = 'cut';
    }
    flushSummaries(at, current);
  }

  /** A stream that ends on the STOP of a hand-off to code (code-handoff.ts) ends as that STOP says. */
  function finishHandedOff(at: ProviderEventContext, current: Response): void {
    for (const candidate of current.candidates.values()) {
      const { handoff } = candidate;
      if (handoff?.chunks !== chunks || candidate.finishedAt !== undefined) continue;
      finish(at.next(at.frame, candidate.agent), current, candidate, handoff.chunk, handoff.value, handoff.reason);
    }
    if (current.candidates.size > 0 && current.unfinished === 0) endResponse(at, current);
  }

  /** Each candidate's summary, once its response is over: the usage is the last chunk's. */
  function flushSummaries(at: ProviderEventContext, current: Response): void {
    let first = true;
    for (const candidate of current.candidates.values()) {
      candidate.clock.model = current.model;
      if (first && current.usage) candidate.clock.usage = normalisedUsage(usageOf(current));
      first = false;
      at.next(at.frame, candidate.agent);
      // The text of a finished candidate closes now: text after its finishReason went on with it.
      if (candidate.finishedAt !== undefined) candidate.closeStreamed(at);
      // No event precedes the first content (the first chunk holds it), so the stream cannot
      // show the time to the first token: that is the request's, which it does not carry.
      const { time_to_first_token_ms: _ttft, ...summary } = candidate.clock.summary(at.frame.receivedAt);
      at.emit({ type: KIND.message, final: true, delta: jsonText(summary), extras: { id: candidate.agent } });
    }
    current.candidates.clear();
  }

  return {
    id: 'gemini',
    push,
    end() {
      if (!lastFrame || !ctx || !response) return;
      const at = ctx.next(lastFrame, response.id);
      if (!response.ended) finishHandedOff(at, response);
      if (waiting) pauseOnClientCalls(at.next(lastFrame, waiting.agent), waiting.ids(), waiting.model);
      if (!response.ended) {
        callbacks.onDiagnostic({
          rule: 'provider.missing-terminal',
          message: `The stream ended without a finishReason for ${
            [...response.candidates.values()]
              .filter((c) => c.finishedAt === undefined)
              .map((c) => `candidate ${c.index}`)
              .join(', ') || 'its response'
          }: the response was cut off or the connection dropped.`,
          at: { byteStart: lastFrame.byteEnd },
        });
        cut(at, response, 'the stream ended');
      } else flushSummaries(at, response);
    },
  };
}

/** A part with something in it (an empty text part, which finishing chunks often carry, has nothing). */
function hasContent(part: unknown): boolean {
  return isJsonObject(part) && !(Object.keys(part).length === 1 && part['text'] === '');
}
