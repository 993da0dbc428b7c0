import type { StreamIds } from '../../envelope/unified';
import { createBlockTracker, type BlockTracker, type StartedBlock } from '../block-tracker';
import { integerField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { ProviderStream } from '../provider/provider-stream';
import type { DialectCallbacks } from '../types';
import type { DecodedDelta, OpenPart } from './content-parts';
import type { ClientCall, PausedResponse } from './client-calls';
import type { OpenItem } from './item-blocks';
import { RecentTextDelta } from './recent-delta';
import { SequenceNumbers } from './sequence-numbers';

/**
 * What the Responses decoder keeps from one event to the next: the shared provider state (the
 * response as its message) plus the output items and content parts open now, the sequence
 * numbers seen, and the last text delta read (to read the next one without JSON.parse).
 */
export class ResponsesStream extends ProviderStream {
  readonly items: BlockTracker<number, OpenItem>;
  readonly parts: BlockTracker<string, OpenPart>;
  readonly sequences = new SequenceNumbers();
  readonly recent = new RecentTextDelta<DecodedDelta>();
  /** The function and custom tool calls of the response so far: the client's to run (client-calls.ts). */
  clientCalls: ClientCall[] = [];
  /**
   * The last response completed with calls for its client, and no response followed (a capture
   * of a tool loop holds the responses that answered them): the stream's end pauses on them.
   */
  waiting: PausedResponse | undefined;
  /**
   * The output items done so far of a response its request did not let the API store
   * (`"store": false`, as response.created echoes it); undefined for a stored one. Its pause
   * sends them back when response.completed gives no output (xAI's, recorded, never does).
   */
  notStoredItems: unknown[] | undefined;
  /** The response an error event summed up as failed ('' for none): its response.failed only confirms it. */
  erroredResponse = '';
  /** The custom tools the response says its request defined; undefined while it has not said (declared-tools.ts). */
  customTools: ReadonlySet<string> | undefined;

  constructor(
    callbacks: DialectCallbacks,
    readonly readShapes: boolean,
  ) {
    super(callbacks, {
      message: 'response',
      start: 'response.created',
      terminal: 'response.completed, .failed or .incomplete',
    });
    const notStopped = (what: string) => (key: string | number, block: StartedBlock & { type: string }, why: string) =>
      callbacks.onDiagnostic({
        rule: 'provider.block-not-stopped',
        message: `The ${block.type || 'untyped'} ${what} ${key} added in event ${block.frame} got no done event ${why}.`,
        at: block.at,
      });
    this.items = createBlockTracker<number, OpenItem>(notStopped('output item'));
    this.parts = createBlockTracker<string, OpenPart>(notStopped('part'));
  }

  /** The stream ids of an event: the response's, and the item and part indexes the event carries. */
  ids(event: WireEvent, extra: StreamIds = {}): StreamIds {
    return {
      response_id: this.messageId,
      item_id: stringField(event, 'item_id') || undefined,
      output_index: integerField(event, 'output_index'),
      content_index: integerField(event, 'content_index') ?? integerField(event, 'summary_index'),
      ...extra,
    };
  }

  /** An event without the indexes that say which item or part it is for: reported, and shown as it is. */
  notAddressed(ctx: ProviderEventContext, type: string, event: WireEvent, why: string): void {
    ctx.report(
      'provider.block-not-started',
      `${type} in event ${ctx.frame.seq} ${why}, so it belongs to no item or part; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }
}
