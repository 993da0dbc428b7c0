import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import type { Frame } from '../../sse/types';
import { cutShortBy } from '../provider/cut-short';
import { ProviderEventContext, type WireEvent } from '../provider/event-context';
import { MessageClock } from '../provider/message-summary';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks } from '../types';
import { AssistantParts, type Wire } from './assistant-parts';
import { TextParts } from './text-parts';
import { ToolCalls } from './tool-calls';

/** Finish reasons that mean the output was cut short, and by what (provider/cut-short.ts). */
const CUT_SHORT_BY: Readonly<Record<string, string>> = {
  length: 'the token limit',
  'content-filter': 'a content filter',
};

/**
 * One assistant message of an AI SDK stream, whichever wire it came in (ui-chunks.ts and
 * data-stream.ts read the two wires into these operations): its lifecycle (start, steps,
 * finish, error, abort), its text and reasoning parts (text-parts.ts), its sources, files and
 * data parts, and its tool calls (tool-calls.ts). Each operation emits envelopes with their unified event, the
 * per-message `message` summary at the end, and, when the message finishes with tool calls
 * the frontend must run, the `awaiting_frontend_tools` pause (with the assistant message so far,
 * for the continuation).
 */

export class AiSdkMessage {
  /** The message id: the agent its envelopes name ('' until a start part or v4 step gives one). */
  messageId = '';
  clock: MessageClock | undefined;
  readonly parts: AssistantParts;
  readonly tools: ToolCalls;
  readonly texts: TextParts;
  private readonly sequence: MessageSequence;
  private eventContext: ProviderEventContext | undefined;
  private lastFrame: Frame | undefined;
  private metadata: unknown;
  private events = 0;
  /** The current message got its finish (or abort) part. */
  private finished = false;
  private failed = false;
  private afterFinishReported = false;
  private sawDone = false;

  constructor(
    private readonly callbacks: DialectCallbacks,
    wire: Wire,
  ) {
    this.parts = new AssistantParts(wire);
    this.tools = new ToolCalls(this, callbacks.onDiagnostic);
    this.texts = new TextParts(this, callbacks.onDiagnostic);
    this.sequence = new MessageSequence(callbacks, { message: 'message', start: 'start', terminal: 'finish' });
  }

  /** The current message got its finish or abort part: what follows is reported (checkAfterFinish). */
  get afterFinish(): boolean {
    return this.finished;
  }

  /** The event being decoded: every operation below emits at it. */
  get ctx(): ProviderEventContext {
    if (!this.eventContext) throw new Error('AiSdkMessage: no event is being decoded');
    return this.eventContext;
  }

  /** The next frame is decoded: the operations below emit at it. */
  at(frame: Frame): ProviderEventContext {
    this.lastFrame = frame;
    this.events++;
    return (this.eventContext ??= new ProviderEventContext(frame, this.callbacks, this.messageId)).next(
      frame,
      this.messageId,
    );
  }

  /** The event's part, `what`, read: a part other than a start after the finish is reported (once per message). */
  checkAfterFinish(what: string, isStart: boolean): void {
    if (!this.finished || isStart || this.afterFinishReported) return;
    this.afterFinishReported = true;
    this.ctx.report(
      'ai-sdk.after-finish',
      `${what} in event ${this.ctx.frame.seq} comes after the message's finish part; a frontend still applies it to the finished message. Later parts after the finish are not reported again.`,
    );
  }

  ids(extra: StreamIds = {}): StreamIds {
    return { message_id: this.messageId, ...extra };
  }

  /** A part arrived for a message no start part began: the message is implied (the start part is optional). */
  ensure(): void {
    if (this.clock || this.finished) return;
    this.sequence.start(this.ctx, this.messageId, false);
    this.clock = new MessageClock(this.ctx.frame.receivedAt);
    this.clock.id = this.messageId;
  }

  /**
   * A start part (or v4's first step). While the message is open it only names it: a frontend
   * keeps one message per response, whatever start parts a server's merged streams repeat.
   * After the finish it begins the next message of the capture.
   */
  start(what: string, event: WireEvent, id: string, metadata: unknown): void {
    if (this.finished || !this.clock) {
      this.finished = false;
      this.failed = false;
      this.afterFinishReported = false;
      this.messageId = id;
      this.ctx.next(this.ctx.frame, id);
      this.parts.reset();
      this.texts.last = undefined;
      this.metadata = undefined;
      this.clock = undefined;
      this.ensure();
    } else this.name(id);
    if (metadata !== undefined) this.addMetadata(metadata);
    this.ctx.wire(what, event, unified('stream.message_start', this.ids()));
  }

  /**
   * An id for the open message, when it has none yet: a start part after its first parts, or
   * v4's first step after a data part (`2:` of merged StreamData comes before it). What follows
   * is named by it; what came before keeps the empty id.
   */
  name(id: string): void {
    if (id === '' || this.messageId !== '') return;
    this.messageId = id;
    this.ctx.next(this.ctx.frame, id);
    if (this.clock) this.clock.id = id;
  }

  /** start-step / finish-step (v4 `f` / `e`), with the step's usage when the wire gives it. */
  step(what: string, event: WireEvent, phase: 'start-step' | 'finish-step', usage?: unknown): void {
    this.ensure();
    if (phase === 'start-step') this.parts.step();
    this.ctx.wire(what, event, unified('stream.message_delta', this.ids(), { phase, usage: normalisedUsage(usage) }));
  }

  /** Message metadata (its own part, or on start and finish): the model and usage a server put there. */
  addMetadata(metadata: unknown): void {
    this.metadata =
      isJsonObject(metadata) && isJsonObject(this.metadata) ? { ...this.metadata, ...metadata } : metadata;
    if (this.clock) this.clock.metadata = this.metadata;
    if (!this.clock || !isJsonObject(metadata)) return;
    const model = metadata['model'] ?? metadata['modelId'];
    if (typeof model === 'string') this.clock.model = model;
    this.addUsage(metadata['usage'] ?? metadata['totalUsage']);
  }

  addUsage(usage: unknown): void {
    const normalised = normalisedUsage(usage);
    if (normalised) this.clock?.addUsage(normalised);
  }

  metadataPart(what: string, event: WireEvent, metadata: unknown): void {
    this.ensure();
    this.addMetadata(metadata);
    this.ctx.wire(what, event, unified('stream.message_delta', this.ids(), { phase: 'metadata' }));
  }

  /**
   * A whole part of its own (a source, a file, a data part): a block of its type holding its
   * fields; `replaces` when it is a data part that replaces an earlier one of its type and id.
   */
  content(type: string, value: unknown, extras: Record<string, unknown>, part: Record<string, unknown> | null): void {
    this.ensure();
    const replaces = part !== null && this.parts.other(part);
    this.ctx.emit({ type, final: true, delta: jsonText(value), extras: replaces ? { ...extras, replaces } : extras });
  }

  /** The message is finished: its open parts end, its pause (client tools) and summary are emitted. */
  finish(what: string, event: WireEvent, end: { reason?: string; usage?: unknown; metadata?: unknown }): void {
    const { reason } = end;
    if (this.finished)
      return this.ctx.wire(what, event, unified('stream.message_stop', this.ids(), { stop_reason: reason }));
    this.ensure();
    const cutBy = this.failed ? undefined : cutShortBy(CUT_SHORT_BY, reason);
    if (cutBy !== undefined)
      this.ctx.report(
        'provider.response-incomplete',
        `${what} in event ${this.ctx.frame.seq} has finishReason ${jsonText(reason)}: ${cutBy} cut the message's output short.`,
      );
    const why = `before ${what} (event ${this.ctx.frame.seq})`;
    // A frontend ends the message here whatever parts are still open: they are kept as they stand.
    if (this.failed) this.texts.endQuietly();
    else this.texts.endMessage(why, true);
    this.tools.endMessage(why, true);
    if (end.metadata !== undefined) this.addMetadata(end.metadata);
    this.addUsage(end.usage);
    // A failed message waits for nothing: useChat stops reading at the error part (status
    // 'error', no automatic send), and the server's run ended there, its calls unanswered.
    if (this.failed) this.tools.discardMessage();
    else this.tools.emitPause(() => this.parts.message(this.messageId, this.metadata));
    this.ctx.wire(
      what,
      event,
      unified('stream.message_stop', this.ids(), { stop_reason: reason, phase: this.failed ? 'failed' : 'completed' }),
    );
    if (this.clock) {
      if (reason !== undefined) this.clock.stopReason = reason;
      if (!this.failed) this.clock.status = cutBy === undefined ? 'completed' : 'incomplete';
      if (cutBy !== undefined) this.clock.incompleteDetails = { reason };
    }
    this.close();
    this.callbacks.onStreamEnd?.(
      cutBy === undefined
        ? { event: what }
        : { event: what, incomplete: `finishReason ${jsonText(reason)} (${cutBy})` },
    );
  }

  /** An error part: the run failed (a finish usually follows, and says so). */
  error(what: string, event: WireEvent, text: string): void {
    this.ensure();
    const first = this.events === 1 ? ' as the first event, before any content' : '';
    this.ctx.report('provider.api-error', `The server sent an error part${first}: ${text}`);
    this.callbacks.onStreamEnd?.({ event: what, error: text });
    this.ctx.emit(
      { type: KIND.error, final: true, delta: jsonText({ errorText: text }), extras: {} },
      unified('stream.error', this.ids(), { error: text, phase: 'failed' }),
    );
    this.failed = true;
    if (this.clock) {
      this.clock.status = 'failed';
      this.clock.error = text;
    }
  }

  /** An abort part: the server stopped the run; what arrived is all the message has. */
  abort(what: string, event: WireEvent, reason: string): void {
    if (this.finished)
      return this.ctx.wire(what, event, unified('stream.message_stop', this.ids(), { phase: 'canceled' }));
    this.ensure();
    this.ctx.report(
      'ai-sdk.aborted',
      `The server aborted the stream in event ${this.ctx.frame.seq}${reason ? ` (${reason})` : ''}: the message is unfinished; a frontend keeps what arrived.`,
    );
    this.callbacks.onStreamEnd?.({ event: what, error: `aborted${reason ? `: ${reason}` : ''}` });
    this.texts.endQuietly();
    this.tools.discardMessage();
    this.ctx.wire(what, event, unified('stream.message_stop', this.ids(), { phase: 'canceled' }));
    if (this.clock) this.clock.status = 'aborted';
    this.failed = true;
    this.close();
  }

  /** The pipeline saw the stream's `[DONE]`. */
  done(): void {
    this.sawDone = true;
  }

  end(): void {
    // After [DONE] a frontend ends the message with what arrived; without it the stream was cut.
    if (this.failed) this.texts.endQuietly();
    else this.texts.endMessage('before the stream ended', this.sawDone);
    this.tools.endMessage('before the stream ended', this.sawDone);
    const last = this.lastFrame;
    const ctx = this.eventContext;
    if (this.finished || !last || !ctx) return;
    if (!this.failed) {
      if (this.sawDone)
        this.callbacks.onDiagnostic({
          rule: 'ai-sdk.missing-finish',
          message:
            'The stream ended with [DONE] but the message never got its finish part; a frontend ends the message at the end of the stream.',
          at: { byteStart: last.byteEnd },
        });
      else
        this.callbacks.onDiagnostic({
          rule: 'provider.missing-terminal',
          message:
            'The stream ended without a finish part (nor [DONE], an error or an abort part): the response was cut off or the connection dropped.',
          at: { byteStart: last.byteEnd },
        });
      if (this.clock) this.clock.status = this.sawDone ? 'ended' : 'cut';
    }
    this.close();
  }

  /** The message ends: its summary, and the sequence's note that it ended. */
  private close(): void {
    this.sequence.end(this.ctx);
    this.finished = true;
    // The assistant message was only kept for a pause, which its finish has made or not.
    this.parts.reset();
    const clock = this.clock;
    this.clock = undefined;
    if (!clock) return;
    // Named, not identified, by the message id: a continuation (the next leg) goes on with the
    // same message, and its summary is that response's, not more of the first one's.
    this.ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(clock.summary(this.ctx.frame.receivedAt)),
      extras: { name: clock.id },
    });
  }
}

/** Usage in the summary's words (input_tokens, output_tokens) beside the SDK's own (inputTokens, promptTokens…). */
export function normalisedUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(usage)) return undefined;
  const input = usage['inputTokens'] ?? usage['promptTokens'];
  const output = usage['outputTokens'] ?? usage['completionTokens'];
  return {
    ...usage,
    ...(typeof input === 'number' ? { input_tokens: input } : {}),
    ...(typeof output === 'number' ? { output_tokens: output } : {}),
  };
}
