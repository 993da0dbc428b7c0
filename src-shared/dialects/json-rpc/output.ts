import type { StreamIds } from '../../envelope/unified';
import type { ProviderEventContext } from '../provider/event-context';
import type { ContentWriter } from './content';
import type { Exchange } from './exchange';

/** How an exchange ended, for its summary: the status and the stop reason it shows. */
export interface Outcome {
  status: string;
  stopReason: string;
}

/**
 * What the protocol handlers (mcp.ts, a2a-events.ts) decode through: the event being decoded,
 * the content writer, and the two steps of an exchange's end, which the decoder owns (the
 * stream's terminal event, then the exchange's summary).
 */
export interface ExchangeOutput {
  readonly ctx: ProviderEventContext;
  readonly writer: ContentWriter;
  /** The stream's terminal event in this protocol is this one; with `error`, it ended in failure. */
  endStream(exchange: Exchange, end: { event: string; error?: string }): void;
  /** Closes the exchange: its open text, then its `message` block. */
  summarise(exchange: Exchange, outcome: Outcome): void;
  /**
   * The event was a plain next chunk of the artifact whose text block `source` is open (one
   * text part, appended, not the last): the same event with another text is decoded alike.
   */
  continuedChunk(exchange: Exchange, source: string, text: string): void;
}

/** Both steps, for an end with nothing to show in between. */
export function finish(
  out: ExchangeOutput,
  exchange: Exchange,
  end: { event: string; error?: string },
  outcome: Outcome,
): void {
  out.endStream(exchange, end);
  out.summarise(exchange, outcome);
}

/** The stream ids of an exchange's events. */
export function exchangeIds(exchange: Exchange, extra: StreamIds = {}): StreamIds {
  return { message_id: exchange.label, ...extra };
}
