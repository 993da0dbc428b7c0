import type { RuleId } from '../../diagnostics/rules';
import { NO_EXTRAS, undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { errorMessage, isJsonObject, jsonKind } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import { ProviderEventContext, stringField } from '../provider/event-context';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import {
  carriesContent,
  choiceExtras,
  closeText,
  invalidChunk,
  streamIds,
  writeCalls,
  writeSources,
  writeText,
  writeAnnotations,
  writeToolFragment,
} from './choice-output';
import { cutShortBy } from '../provider/cut-short';
import { leavesCallsToClient, pauseOnClientCalls } from './client-calls';
import { Completion, type Choice } from './completion';
import { filterVerdictAfterFinish } from './content-filter';
import { writeExecutedTools } from './executed-tools';
import { RecentContentDelta } from './recent-content';
import {
  apiErrorText,
  CHANNEL_KEYS,
  chunkUsage,
  contentParts,
  CUT_SHORT_BY,
  failedBecause,
  finishOutcome,
  KNOWN_OBJECTS,
  reasoningText,
  REASONING,
  REFUSAL,
  TEXT,
  TRANSCRIPT,
  type StreamedChannel,
} from './vocabulary';

/** What a learnt content chunk decoded to (see RecentContentDelta): checked to still hold before each read. */
interface LearntDelta {
  completion: Completion;
  choice: Choice;
  channel: StreamedChannel;
}

/** A text delta a chunk streamed, with its text and extras. */
interface Streamed {
  learnt: LearntDelta;
  text: string;
  extras: Record<string, unknown>;
}

/** The wire type of a chunk shown as a provider event. */
const CHUNK = 'chat.completion.chunk';

/**
 * The OpenAI Chat Completions stream (docs/protocols/openai-chat.md): data-only
 * `chat.completion.chunk` events ending at `data: [DONE]`, which the pipeline recognises.
 * Every choice is a message of its own (an agent `id#index` for choices after the first):
 * its content, reasoning (`reasoning_content` or `reasoning`), refusal and audio transcript
 * stream as text, thinking, refusal and text envelopes (the audio's id and size go to its summary); its tool call fragments are shown as they come and
 * joined into one call envelope per call at its finish_reason (arguments checked to parse);
 * the finish_reason closes it, and Perplexity's sources and a delta's `url_citation` annotations
 * become citations of its text; the tools Groq runs itself (`executed_tools`) are server tool
 * calls and results. The usage chunk (`choices: []`) and every other chunk without content are
 * shown as provider events, and a `message` envelope per choice sums it up when the stream ends.
 * Errors (`data: {"error": …}`, `event: error`, an `error` member inside a chunk) end the stream
 * by error.
 */
export function createOpenAiChatDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  let envelopes = 0;
  const counted: DialectCallbacks = {
    ...callbacks,
    onEnvelope: (envelope, payload) => {
      envelopes++;
      callbacks.onEnvelope(envelope, payload);
    },
  };
  const completions = new MessageSequence(callbacks, {
    message: 'completion',
    start: 'a chunk with another id',
    terminal: 'finish_reason',
  });
  const reported = new Set<string>();
  let completion: Completion | undefined;
  let failed = false;
  let frames = 0;
  let lastFrame: Frame | undefined;
  let eventContext: ProviderEventContext | undefined;
  const recent = new RecentContentDelta<LearntDelta>();
  const readShapes = options.readShapes !== false;
  /** The text delta the chunk being decoded streamed last: what a content chunk teaches `recent`. */
  let streamed: Streamed | undefined;

  function push(frame: Frame): void {
    lastFrame = frame;
    frames++;
    const ctx = (eventContext ??= new ProviderEventContext(frame, counted, '')).next(frame, completion?.id ?? '');
    if (readShapes && frame.event === '' && recent.read(frame.data)) {
      // The next content chunk of the choice the last one was for, read without JSON.parse:
      // decoded as that one was, while its completion, choice and open block still hold.
      const { completion: current, choice, channel } = recent.meaning as LearntDelta;
      if (current === completion && choice.finish === undefined && choice.open === channel) {
        choice.lastFrame = frame;
        choice.clock.token(frame.receivedAt);
        ctx
          .next(frame, choice.agent)
          .envelope(channel.kind, false, recent.text, NO_EXTRAS, undefined, choice.deltaEvent);
        if (channel === TEXT) choice.content.add(recent.text);
        return;
      }
    }
    let value: unknown;
    try {
      value = JSON.parse(frame.data);
    } catch (error) {
      if (frame.event === 'error') return apiError(ctx, frame.data);
      ctx.report(
        'json.invalid',
        `Event ${frame.seq} is not valid JSON (${errorMessage(error)}): ${previewText(frame.data)}`,
      );
      return ctx.emit(undecodedParts(frame));
    }
    if (frame.event === 'error') return apiError(ctx, isJsonObject(value) && 'error' in value ? value['error'] : value);
    if (!isJsonObject(value)) return invalidChunk(ctx, `is a JSON ${jsonKind(value)}, not a chunk object`);
    const before = envelopes;
    streamed = undefined;
    chunk(ctx, value);
    if (envelopes === before) ctx.wire(CHUNK, value);
    else {
      // Set by stream() while the chunk decoded (a cast: the compiler does not see that).
      const taught = streamed as Streamed | undefined;
      if (envelopes === before + 1 && taught?.extras === NO_EXTRAS && frame.event === '')
        recent.learn(frame.data, CHANNEL_KEYS.get(taught.learnt.channel) ?? [], taught.text, taught.learnt);
    }
  }

  function chunk(ctx: ProviderEventContext, event: Record<string, unknown>): void {
    const choices = event['choices'];
    const usage = chunkUsage(event);
    const error = event['error'];
    if (!Array.isArray(choices) && usage === undefined) {
      if (error !== undefined && error !== null) return apiError(ctx, error);
      return invalidChunk(ctx, 'has no choices array, usage or error');
    }
    const object = event['object'];
    if (typeof object === 'string' && !KNOWN_OBJECTS.has(object))
      reportOnce(
        ctx,
        'provider.unknown-event',
        `object:${object}`,
        `Event ${ctx.frame.seq} is an object ${jsonText(object)}, which this version does not know; read as a chunk.`,
      );
    const current = completionOf(ctx, event);
    current.noteSources(event);
    ctx.next(ctx.frame, current.id);
    if (error !== undefined && error !== null) apiError(ctx, error);
    if (Array.isArray(choices))
      for (let i = 0; i < choices.length; i++) choiceChunk(ctx, current, event, choices[i], i);
    if (usage) {
      current.usage = { ...current.usage, ...usage };
      ctx
        .next(ctx.frame, current.id)
        .wire(CHUNK, event, unified('stream.message_delta', { message_id: current.id }, { usage }));
    }
  }

  /** The completion a chunk belongs to: a chunk with choices and another id after every choice finished begins the next one. */
  function completionOf(ctx: ProviderEventContext, event: Record<string, unknown>): Completion {
    const id = stringField(event, 'id');
    const model = stringField(event, 'model');
    const choices = event['choices'];
    const next =
      completion !== undefined &&
      id !== '' &&
      id !== completion.id &&
      completion.finished() &&
      Array.isArray(choices) &&
      choices.length > 0;
    if (completion === undefined || next) {
      if (completion) summarise(completion, ctx.frame);
      completions.start(ctx, id, false);
      completion = new Completion(id, model, ctx.frame.receivedAt);
    } else if (completion.choices.size === 0) {
      // A placeholder chunk (Azure's first, with its prompt filter results) has no id or model yet.
      completion.id ||= id;
      completion.model ||= model;
    }
    completion.model ||= model;
    return completion;
  }

  function choiceChunk(
    ctx: ProviderEventContext,
    current: Completion,
    event: Record<string, unknown>,
    raw: unknown,
    position: number,
  ): void {
    if (!isJsonObject(raw)) return invalidChunk(ctx, `has a choice at position ${position} that is no object`, 'part');
    const index = typeof raw['index'] === 'number' && Number.isInteger(raw['index']) ? raw['index'] : position;
    const known = current.choices.has(index);
    const choice = current.choice(index, ctx.frame);
    choice.lastFrame = ctx.frame;
    ctx.next(ctx.frame, choice.agent);
    if (!known)
      ctx.wire(CHUNK, event, unified('stream.message_start', streamIds(current, choice), { phase: 'started' }));
    // `message` instead of `delta`: a server that sends the whole message in its last chunk.
    const delta = raw['delta'] ?? raw['message'];
    if (delta !== undefined && delta !== null && !isJsonObject(delta))
      invalidChunk(ctx, `has a choice ${index} whose delta is a JSON ${jsonKind(delta)}`, 'part');
    const fields = isJsonObject(delta) ? delta : {};
    const extras = choiceExtras(raw);
    if (choice.finish !== undefined && carriesContent(fields))
      ctx.report(
        'provider.delta-after-stop',
        `Event ${ctx.frame.seq} has content for choice ${index} after its finish_reason ${jsonText(choice.finish)}; kept in blocks of its own, which a client that stopped at the finish_reason never shows.`,
      );
    stream(ctx, current, choice, REASONING, reasoningText(fields), extras);
    if (Array.isArray(fields['reasoning_details'])) choice.reasoningDetails.add(fields['reasoning_details']);
    if (Array.isArray(fields['executed_tools'])) writeExecutedTools(ctx, current, choice, fields['executed_tools']);
    const content = fields['content'];
    if (typeof content === 'string') stream(ctx, current, choice, TEXT, content, extras);
    else if (Array.isArray(content))
      for (const part of contentParts(content)) stream(ctx, current, choice, part.channel, part.text, extras);
    const annotations = fields['annotations'];
    if (Array.isArray(annotations)) for (const annotation of annotations) choice.annotations.push(annotation);
    const refusal = fields['refusal'];
    if (typeof refusal === 'string') stream(ctx, current, choice, REFUSAL, refusal, extras);
    if (fields['audio'] !== undefined && fields['audio'] !== null)
      stream(ctx, current, choice, TRANSCRIPT, choice.audio.add(fields['audio']), extras);
    const toolCalls = fields['tool_calls'];
    if (Array.isArray(toolCalls))
      toolCalls.forEach((fragment, position) => writeToolFragment(ctx, current, choice, fragment, false, position));
    else if (isJsonObject(toolCalls)) {
      // TGI 2.x sends each fragment as the object itself: read as the one entry of an array.
      reportOnce(
        ctx,
        'openai-chat.tool-calls-not-array',
        'tool-calls-object',
        `Event ${ctx.frame.seq} has tool_calls for choice ${index} that are one call object, not an array (as TGI 2.x sends them); read as an array of that one call. A client that iterates the array gets no call from it.`,
      );
      writeToolFragment(ctx, current, choice, toolCalls, false, 0);
    } else if (toolCalls !== undefined && toolCalls !== null)
      invalidChunk(
        ctx,
        `has tool_calls for choice ${index} that are a JSON ${jsonKind(toolCalls)}, not an array`,
        'part',
      );
    if (isJsonObject(fields['function_call']))
      writeToolFragment(ctx, current, choice, fields['function_call'], true, 0);
    const reason = raw['finish_reason'];
    if (typeof reason === 'string' && reason !== '' && choice.finish === undefined)
      finish(ctx, current, choice, reason, event);
    filterVerdictAfterFinish(ctx, choice, raw['content_filter_results'], callbacks.onStreamEnd);
  }

  /** Text of one channel, written (writeText); what it wrote is what the chunk may teach `recent`. */
  function stream(
    ctx: ProviderEventContext,
    current: Completion,
    choice: Choice,
    channel: StreamedChannel,
    text: string,
    extras: Record<string, unknown>,
  ): void {
    if (writeText(ctx, current, choice, channel, text, extras))
      streamed = { learnt: { completion: current, choice, channel }, text, extras };
  }

  function finish(
    ctx: ProviderEventContext,
    current: Completion,
    choice: Choice,
    reason: string,
    event: Record<string, unknown>,
  ): void {
    choice.finish = reason;
    choice.finishedAt = ctx.frame.receivedAt;
    closeText(ctx, current, choice);
    writeSources(ctx, current, choice);
    writeAnnotations(ctx, current, choice);
    let outcome = finishOutcome(reason);
    const calls = writeCalls(ctx, current, choice, true, outcome === 'incomplete');
    if (leavesCallsToClient(reason, calls)) choice.clientCalls = calls;
    const clock = choice.clock;
    clock.stopReason = reason;
    if (outcome === undefined) {
      reportOnce(
        ctx,
        'provider.unknown-event',
        `finish:${reason}`,
        `Choice ${choice.index} finished with finish_reason ${jsonText(reason)} in event ${ctx.frame.seq}, which this version does not know: taken as the end of its output, without saying whether the output is whole.`,
      );
      outcome = 'completed';
    } else if (outcome === 'incomplete') {
      clock.incompleteDetails = { reason };
      const cutBy = cutShortBy(CUT_SHORT_BY, reason) ?? reason;
      ctx.report(
        'provider.response-incomplete',
        `Choice ${choice.index} finished with finish_reason ${jsonText(reason)} in event ${ctx.frame.seq}: ${cutBy} cut its output short.`,
      );
      callbacks.onStreamEnd?.({
        event: `finish_reason ${reason}`,
        incomplete: `choice ${choice.index} finished with finish_reason ${jsonText(reason)} (${cutBy})`,
      });
    } else if (outcome === 'failed' && !failed) {
      apiError(
        ctx,
        `choice ${choice.index} finished with finish_reason ${jsonText(reason)} (${failedBecause(reason)})`,
      );
    }
    clock.status = outcome;
    ctx.wire(
      CHUNK,
      event,
      unified('stream.message_stop', streamIds(current, choice), { stop_reason: reason, phase: outcome }),
    );
    if (current.finished()) completions.end(ctx);
  }

  function apiError(ctx: ProviderEventContext, error: unknown): void {
    const message = apiErrorText(error);
    const first = frames === 1 ? ' as the first event, before any chunk (the request was accepted, then failed)' : '';
    ctx.report('provider.api-error', `The API sent an error in event ${ctx.frame.seq}${first}: ${message}`);
    ctx.emit(
      { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
      unified('stream.error', { message_id: completion?.id }, { error, phase: 'failed' }),
    );
    callbacks.onStreamEnd?.({ event: 'error', error: message });
    if (failed) return;
    failed = true;
    for (const choice of completion?.choices.values() ?? []) {
      if (choice.finish !== undefined) continue;
      choice.clock.status = 'failed';
      choice.clock.error = error;
    }
  }

  /** A finding made once a stream (the first such event), for what a server does at every chunk. */
  function reportOnce(ctx: ProviderEventContext, rule: RuleId, key: string, text: string): void {
    if (reported.has(key)) return;
    reported.add(key);
    ctx.report(rule, `${text} Later ones are not reported again.`);
  }

  /** Every choice's message summary, at the frame where the completion is over (the stream's end, or the next completion's first chunk). */
  function summarise(current: Completion, frame: Frame): void {
    const ctx = new ProviderEventContext(frame, counted, current.id);
    for (const choice of [...current.choices.values()].sort((a, b) => a.index - b.index)) {
      ctx.next(frame, choice.agent);
      if (choice.finish === undefined) {
        if (!failed)
          callbacks.onDiagnostic({
            rule: 'openai-chat.no-finish-reason',
            message: `Choice ${choice.index} got no finish_reason before the stream ended: its output was cut off, and what it streamed is left open.`,
            at: {
              frame: choice.lastFrame.seq,
              byteStart: choice.lastFrame.byteStart,
              byteEnd: choice.lastFrame.byteEnd,
            },
          });
        choice.clock.status = failed ? 'failed' : 'cut';
        writeCalls(ctx, current, choice, false);
      } else {
        // Content that came after its finish_reason (reported there) closes with the completion.
        closeText(ctx, current, choice);
        writeCalls(ctx, current, choice, true);
      }
      // Annotations of a choice cut short, or sent after its finish_reason.
      writeAnnotations(ctx, current, choice);
      ctx.emit({
        type: KIND.message,
        final: true,
        delta: jsonText(current.summary(choice, frame.receivedAt)),
        extras: { id: current.id },
      });
    }
  }

  return {
    id: 'openai-chat',
    push,
    end() {
      if (completion && lastFrame) {
        summarise(completion, lastFrame);
        if (!failed) pauseOnClientCalls(new ProviderEventContext(lastFrame, counted, completion.id), completion);
      }
      completion = undefined;
    },
  };
}
