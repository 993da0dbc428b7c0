import { unified } from '../../envelope/unified';
import type { Frame } from '../../sse/types';
import { readWireEvent } from '../provider/event-context';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { jsonText } from '../../json/tree';
import { blockDelta, startBlock, stopBlock, STREAMED, streamedDelta } from './block-events';
import {
  apiError,
  beganInsideMessage,
  endBlocks,
  MESSAGE_EVENTS,
  messageDelta,
  messageStart,
  messageStop,
} from './message-events';
import { pauseOnClientCalls } from './client-calls';
import { MessagesStream } from './stream-state';

/**
 * The Anthropic Messages API stream as the API sends it (docs/protocols/provider-events.md):
 * `event:` + `data:` frames, one message per stream, ending at `message_stop` (no `[DONE]`).
 * Text and thinking deltas become streamed text/thinking envelopes, citations attach to the
 * text, tool inputs are buffered into one tool call at the block's stop (checked to parse),
 * server and MCP tool results become server_tool_result envelopes linked by tool_use_id,
 * redacted thinking is kept as its own block, and every other event is shown as a provider
 * event. Each envelope carries the event's unified form. At `message_stop` a `message`
 * envelope sums the message up (model, usage, stop reason, timing). Unknown event, block and
 * delta types are reported once each and kept.
 *
 * The decoder routes each event to its concept's handlers (message-events, block-events,
 * server-tool-results), which share the decoder's state (`MessagesStream`).
 */
export function createAnthropicMessagesDecoder(
  callbacks: DialectCallbacks,
  options: DialectOptions = {},
): DialectDecoder {
  const s = new MessagesStream(callbacks, options.readShapes !== false);

  function push(frame: Frame): void {
    const ctx = s.contextOf(frame);
    const compact = s.compact;
    if ((frame.event === '' || frame.event === 'content_block_delta') && compact.read(frame.data)) {
      // A text or thinking delta in the API's compact form: decoded as below, without JSON.parse.
      const block = s.blocks.get(compact.index);
      const streamed = block ? STREAMED[block.type] : undefined;
      if (block && streamed) {
        s.events++;
        s.message?.token(frame.receivedAt);
        return streamedDelta(
          s,
          ctx,
          compact.index,
          block,
          streamed,
          compact.thinking ? 'reasoning_delta' : 'text_delta',
          compact.text,
        );
      }
    }
    const event = readWireEvent(ctx, 'Anthropic Messages');
    s.events++;
    if (!event) return;
    const type = event['type'] as string;
    if (frame.event !== '' && frame.event !== type) {
      ctx.report(
        'provider.unknown-event',
        `Event ${frame.seq} says event: ${frame.event} but its data has type ${jsonText(type)}; decoded by its data.`,
      );
    }
    // The flag first: once a message started, no event pays for the set lookup.
    if (!s.messages.started && MESSAGE_EVENTS.has(type)) beganInsideMessage(s, ctx, type);
    switch (type) {
      case 'message_start':
        return messageStart(s, ctx, event);
      case 'content_block_start':
        return startBlock(s, ctx, event);
      case 'content_block_delta':
        return blockDelta(s, ctx, event);
      case 'content_block_stop':
        return stopBlock(s, ctx, event);
      case 'message_delta':
        return messageDelta(s, ctx, event);
      case 'message_stop':
        return messageStop(s, ctx, event);
      case 'ping':
        return ctx.wire(type, event, unified('stream.ping', s.ids()));
      case 'error':
        return apiError(s, ctx, event);
      default:
        s.reportUnknown(
          ctx,
          type,
          `Event ${frame.seq} has type ${jsonText(type)}, which is not an Anthropic Messages stream event; kept as a provider event.`,
        );
        ctx.wire(type, event);
    }
  }

  return {
    id: 'anthropic-messages',
    push,
    end() {
      if (s.lastFrame) endBlocks(s, s.contextFor(s.lastFrame), 'before the stream ended');
      s.endStream('message_stop');
      const waiting = s.waiting;
      if (waiting && s.lastFrame)
        pauseOnClientCalls(s.contextFor(s.lastFrame), waiting.messageId, waiting.assistant, waiting.pauseTurn);
    },
  };
}
