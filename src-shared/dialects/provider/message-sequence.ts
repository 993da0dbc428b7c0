import type { DialectCallbacks } from '../types';
import type { ProviderEventContext } from './event-context';

/** How a provider names its messages and their events, for the findings. */
export interface MessageWords {
  /** `message`, `response`. */
  message: string;
  /** The event that starts one: `message_start`, `response.created`. */
  start: string;
  /** Its terminal events, as a finding names them. */
  terminal: string;
}

/**
 * The messages of one provider stream, one after another. The APIs send one message per
 * stream, but a capture may hold several (an agent loop's calls saved to one file, a proxy's
 * log): a message that starts after the previous one ended is the next message, not a
 * broken one. It is said once (`provider.next-message`, info), and the stream is open again
 * until the new message ends (`DialectCallbacks.onStreamResumed`). A message that starts
 * while the previous one is still open cut that one short (`provider.missing-terminal`).
 */
export class MessageSequence {
  /** Messages started so far. */
  private count = 0;
  /** The frame of the event that ended the last message, while no other one started. */
  private endedAt: number | undefined;
  private lastId = '';

  constructor(
    private readonly callbacks: DialectCallbacks,
    private readonly words: MessageWords,
  ) {}

  /** A message started in this stream. */
  get started(): boolean {
    return this.count > 0;
  }

  /** The last message ended (its terminal event, or an error event). */
  get ended(): boolean {
    return this.endedAt !== undefined;
  }

  /**
   * A message starts. `open` tells whether the previous one is still open (never ended):
   * then it was cut short, unless this start only repeats its id (a duplicated start event,
   * a response.created after the response.queued of the same response). Returns false for
   * such a repeated start, which begins no new message; the dialect says whether it is wrong.
   */
  start(ctx: ProviderEventContext, id: string, open: boolean): boolean {
    const { message, start, terminal } = this.words;
    if (open && id !== '' && id === this.lastId) return false;
    this.count++;
    if (open) {
      ctx.report(
        'provider.missing-terminal',
        `${message} ${this.count - 1}${this.lastId ? ` (${this.lastId})` : ''} got no ${terminal} before ${start} in event ${ctx.frame.seq} began ${message} ${this.count}${id ? ` (${id})` : ''}: it was cut short.`,
      );
    } else if (this.endedAt !== undefined) {
      ctx.report(
        'provider.next-message',
        `${start} in event ${ctx.frame.seq} begins ${message} ${this.count}${id ? ` (${id})` : ''} after ${message} ${this.count - 1} ended in event ${this.endedAt}: the capture holds several ${message}s, decoded one after another.`,
      );
      this.callbacks.onStreamResumed?.();
    }
    this.endedAt = undefined;
    this.lastId = id;
    return true;
  }

  /** The current message ended at this event. */
  end(ctx: ProviderEventContext): void {
    this.endedAt = ctx.frame.seq;
  }
}
