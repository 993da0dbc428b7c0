import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import type { Frame } from '../../sse/types';
import type { DialectCallbacks } from '../types';
import { ProviderEventContext } from './event-context';
import { MessageSequence, type MessageWords } from './message-sequence';
import { MessageClock } from './message-summary';

/**
 * What a provider dialect's decoder keeps from one event to the next, shared by the provider
 * dialects (Anthropic Messages, OpenAI Responses): the message open now (a Responses
 * response is its message) with its clock, the sequence of messages, how many events came,
 * the last frame (for the end-of-stream finding) and the unknown types already reported.
 * Each dialect's state extends it with its blocks; its event handlers are modules of
 * functions taking that state, so the decoder is no single closure.
 */
export class ProviderStream {
  /** The message between its start and its end (or cut), with what its summary says. */
  message: MessageClock | undefined;
  /** The id of the current message: every envelope's agent. */
  messageId = '';
  /** Events pushed so far (an error as the first event is said so). */
  events = 0;
  lastFrame: Frame | undefined;
  /** The one event context of this decoder, moved to each event pushed. */
  eventContext: ProviderEventContext | undefined;
  readonly messages: MessageSequence;
  private readonly unknownReported = new Set<string>();

  constructor(
    readonly callbacks: DialectCallbacks,
    words: MessageWords,
  ) {
    this.messages = new MessageSequence(callbacks, words);
  }

  /** The context for this frame's event, moved from the last one. */
  contextOf(frame: Frame): ProviderEventContext {
    this.lastFrame = frame;
    return (this.eventContext ??= new ProviderEventContext(frame, this.callbacks, this.messageId)).next(
      frame,
      this.messageId,
    );
  }

  /** A context of this event for the current message id (after the event changed it, or at the stream's end). */
  contextFor(frame: Frame): ProviderEventContext {
    return new ProviderEventContext(frame, this.callbacks, this.messageId);
  }

  /** A message starts at this event (its clock from the frame's receive time; 0 when it only ends here). */
  openMessage(id: string, startedAt: number): MessageClock {
    this.messageId = id;
    const message = new MessageClock(startedAt);
    message.id = id;
    return (this.message = message);
  }

  /** An unknown event, block or delta type: reported once per key, with a note that later ones are not. */
  reportUnknown(ctx: ProviderEventContext, key: string, text: string): void {
    if (this.unknownReported.has(key)) return;
    this.unknownReported.add(key);
    ctx.report('provider.unknown-event', `${text} Later ones are not reported again.`);
  }

  /** The `message` envelope summing the open message up; the message is over. */
  emitSummary(ctx: ProviderEventContext): void {
    const message = this.message;
    if (!message) return;
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(message.summary(ctx.frame.receivedAt)),
      extras: { id: message.id },
    });
    this.message = undefined;
  }

  /** The open message was cut short (the next one started, or the stream ended): summed up as cut. */
  cutMessage(ctx: ProviderEventContext): void {
    if (!this.message) return;
    this.message.status = 'cut';
    this.emitSummary(ctx);
  }

  /** The open message failed with this error (an error event): summed up as failed. */
  failMessage(ctx: ProviderEventContext, error: unknown): void {
    if (!this.message) return;
    this.message.status = 'failed';
    this.message.error = error;
    this.emitSummary(ctx);
  }

  /**
   * The stream ended: when its last message got no terminal event (`terminals` names them),
   * that is reported and the message is summed up as cut. The dialect ends its blocks first.
   */
  endStream(terminals: string): void {
    const lastFrame = this.lastFrame;
    if (this.messages.ended || this.events === 0 || !lastFrame) return;
    this.callbacks.onDiagnostic({
      rule: 'provider.missing-terminal',
      message: `The stream ended without ${terminals} (or an error event): the response was cut off or the connection dropped.`,
      at: { byteStart: lastFrame.byteEnd },
    });
    this.cutMessage(this.contextFor(lastFrame));
  }
}
