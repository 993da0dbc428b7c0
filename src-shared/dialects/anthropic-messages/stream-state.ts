import type { unified, UnifiedEvent } from '../../envelope/unified';
import { createBlockTracker, type BlockTracker, type StartedBlock } from '../block-tracker';
import { integerField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { ProviderStream } from '../provider/provider-stream';
import type { DialectCallbacks } from '../types';
import type { TextChunks } from '../provider/text-chunks';
import { AssistantBlocks } from './client-calls';
import { CompactTextDelta } from './compact-delta';

/** A content block between its content_block_start and content_block_stop. */
export interface OpenBlock extends StartedBlock {
  type: string;
  id: string;
  name: string;
  toolUseId: string;
  /**
   * A copy of the start event's content_block (server tool results carry their whole content
   * there; a compaction block's deltas complete it).
   */
  start: WireEvent;
  /** input_json_delta fragments, joined at the stop. */
  input: string[];
  /**
   * The unified form of the block's text or thinking deltas, made at the first: every delta
   * of a block has the same one, so its envelopes share it (read-only) instead of one each.
   */
  deltaEvent?: UnifiedEvent;
  /** Where its text is kept for the client's assistant message (AssistantBlocks), while it is. */
  kept?: TextChunks;
}

/**
 * What the Messages decoder keeps from one event to the next: the shared provider state plus
 * the content blocks open now and the reader of compact text deltas.
 */
export class MessagesStream extends ProviderStream {
  readonly blocks: BlockTracker<number, OpenBlock>;
  readonly compact: CompactTextDelta;
  /** The content blocks of the message being streamed, for the client's assistant message (client-calls.ts). */
  assistant = new AssistantBlocks();
  /**
   * The last message stopped on `tool_use` with calls for its client, or on `pause_turn` (a
   * long turn of server tools the client is to continue), and no message followed (a capture
   * of a tool loop holds the ones that answered them): the stream's end pauses on it.
   */
  waiting: { messageId: string; assistant: AssistantBlocks; pauseTurn: boolean } | undefined;
  /** The message_delta that gave the open message its stop_reason: where a cut short is said to be. */
  stopReasonFrame: number | undefined;
  /** That message_delta's `stop_details` (a refusal's category and explanation), but its `type`. */
  stopDetails: Record<string, unknown> | undefined;
  /** A content block started in the open message (a refusal may stop one that has none). */
  contentStarted = false;

  constructor(callbacks: DialectCallbacks, readShapes: boolean) {
    super(callbacks, { message: 'message', start: 'message_start', terminal: 'message_stop' });
    this.blocks = createBlockTracker<number, OpenBlock>((index, block, why) =>
      callbacks.onDiagnostic({
        rule: 'provider.block-not-stopped',
        message: `The ${block.type || 'untyped'} block ${index} started in event ${block.frame} got no content_block_stop ${why}.`,
        at: block.at,
      }),
    );
    this.compact = new CompactTextDelta(readShapes);
  }

  /** StreamIDs as docs/protocols/provider-events.md maps them: the block's index is its block_id and content_index. */
  ids(index?: number, block?: OpenBlock): Parameters<typeof unified>[1] {
    return {
      message_id: this.messageId,
      ...(index !== undefined ? { block_id: String(index), content_index: index } : {}),
      ...(block?.id ? { tool_call_id: block.id } : block?.toolUseId ? { tool_call_id: block.toolUseId } : {}),
    };
  }

  /** The open block a delta or stop event addresses; reports and shows the event when there is none. */
  addressedBlock(ctx: ProviderEventContext, event: WireEvent): { index: number; block: OpenBlock } | undefined {
    const index = integerField(event, 'index');
    if (index === undefined) {
      this.missingIndex(ctx, event);
      return undefined;
    }
    const block = this.blocks.get(index);
    if (block) return { index, block };
    const type = stringField(event, 'type');
    if (this.blocks.state(index) === 'stopped')
      ctx.report(
        'provider.delta-after-stop',
        `${type} in event ${ctx.frame.seq} is for block ${index}, which already got its content_block_stop; kept as a provider event.`,
      );
    else
      ctx.report(
        'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} is for block ${index}, which no content_block_start of this message started; kept as a provider event.`,
      );
    ctx.wire(type, event);
    return undefined;
  }

  /** A block event without an integer index: reported, and shown as it is. */
  missingIndex(ctx: ProviderEventContext, event: WireEvent): void {
    const type = stringField(event, 'type');
    ctx.report(
      'provider.block-not-started',
      `${type} in event ${ctx.frame.seq} has no integer index, so it belongs to no block; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }
}
