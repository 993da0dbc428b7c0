import {
  unified,
  type ContentChannel,
  type DeltaKind,
  type ToolKind,
  type UnifiedEvent,
  type UnifiedTool,
} from '../../envelope/unified';
import type { Frame } from '../../sse/types';
import { citationEnvelopeParts } from '../anthropic-raw/stream-events';
import { createBlockTracker, type StartedBlock } from '../block-tracker';
import {
  checkToolArguments,
  integerField,
  objectField,
  ProviderEventContext,
  readWireEvent,
  stringField,
  type WireEvent,
} from '../provider/event-context';
import { NO_EXTRAS } from '../../envelope/types';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';
import { MessageClock } from '../provider/message-summary';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { jsonText } from '../../json/tree';
import { CompactTextDelta } from './compact-delta';

/** A content block between its content_block_start and content_block_stop. */
interface OpenBlock extends StartedBlock {
  type: string;
  id: string;
  name: string;
  toolUseId: string;
  /** The start event's content_block (server tool results carry their whole content there). */
  start: WireEvent;
  /** input_json_delta fragments, joined at the stop. */
  input: string[];
  /**
   * The unified form of the block's text or thinking deltas, made at the first: every delta
   * of a block has the same one, so its envelopes share it (read-only) instead of one each.
   */
  deltaEvent?: UnifiedEvent;
}

/** Block types whose text streams as deltas, with the envelope type and channel they stream on. */
const STREAMED: Readonly<Record<string, { type: EnvelopeKind; channel: ContentChannel }>> = {
  text: { type: KIND.text, channel: 'output_text' },
  thinking: { type: KIND.thinking, channel: 'reasoning' },
};

/** Tool-use blocks: the envelope type of the call and the unified tool kind. */
const TOOL_USE: Readonly<Record<string, { type: EnvelopeKind; kind: ToolKind }>> = {
  tool_use: { type: KIND.tool_call, kind: 'client' },
  server_tool_use: { type: KIND.server_tool_call, kind: 'server' },
  mcp_tool_use: { type: KIND.server_tool_call, kind: 'mcp' },
};

const DELTA_KINDS: Readonly<Record<string, DeltaKind>> = {
  text_delta: 'text_delta',
  thinking_delta: 'reasoning_delta',
  signature_delta: 'signature_delta',
  input_json_delta: 'input_json_delta',
  citations_delta: 'citations_delta',
};

/** Result blocks of server tools: every `*_tool_result` type the API has, and MCP's. */
function isToolResultBlock(type: string): boolean {
  return type.endsWith('_tool_result');
}

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
 */
export function createAnthropicMessagesDecoder(
  callbacks: DialectCallbacks,
  options: DialectOptions = {},
): DialectDecoder {
  const blocks = createBlockTracker<number, OpenBlock>((index, block, why) =>
    callbacks.onDiagnostic({
      rule: 'provider.block-not-stopped',
      message: `The ${block.type || 'untyped'} block ${index} started in event ${block.frame} got no content_block_stop ${why}.`,
      at: block.at,
    }),
  );
  const unknownReported = new Set<string>();
  let message: MessageClock | undefined;
  let messageId = '';
  let events = 0;
  const messages = new MessageSequence(callbacks, {
    message: 'message',
    start: 'message_start',
    terminal: 'message_stop',
  });
  let lastFrame: Frame | undefined;
  const compact = new CompactTextDelta(options.readShapes !== false);
  let eventContext: ProviderEventContext | undefined;

  function push(frame: Frame): void {
    lastFrame = frame;
    const ctx = (eventContext ??= new ProviderEventContext(frame, callbacks, messageId)).next(frame, messageId);
    if ((frame.event === '' || frame.event === 'content_block_delta') && compact.read(frame.data)) {
      // A text or thinking delta in the API's compact form: decoded as below, without JSON.parse.
      const block = blocks.get(compact.index);
      const streamed = block ? STREAMED[block.type] : undefined;
      if (block && streamed) {
        events++;
        message?.token(frame.receivedAt);
        return streamedDelta(
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
    events++;
    if (!event) return;
    const type = event['type'] as string;
    if (frame.event !== '' && frame.event !== type) {
      ctx.report(
        'provider.unknown-event',
        `Event ${frame.seq} says event: ${frame.event} but its data has type ${jsonText(type)}; decoded by its data.`,
      );
    }
    switch (type) {
      case 'message_start':
        return messageStart(ctx, event);
      case 'content_block_start':
        return startBlock(ctx, event);
      case 'content_block_delta':
        return blockDelta(ctx, event);
      case 'content_block_stop':
        return stopBlock(ctx, event);
      case 'message_delta':
        return messageDelta(ctx, event);
      case 'message_stop':
        return messageStop(ctx, event);
      case 'ping':
        return ctx.wire(type, event, unified('stream.ping', ids()));
      case 'error':
        return apiError(ctx, event);
      default:
        reportUnknown(
          ctx,
          type,
          `Event ${frame.seq} has type ${jsonText(type)}, which is not an Anthropic Messages stream event; kept as a provider event.`,
        );
        ctx.wire(type, event);
    }
  }

  /** StreamIDs as docs/protocols/provider-events.md maps them: the block's index is its block_id and content_index. */
  const ids = (index?: number, block?: OpenBlock): Parameters<typeof unified>[1] => ({
    message_id: messageId,
    ...(index !== undefined ? { block_id: String(index), content_index: index } : {}),
    ...(block?.id ? { tool_call_id: block.id } : block?.toolUseId ? { tool_call_id: block.toolUseId } : {}),
  });

  function messageStart(ctx: ProviderEventContext, event: WireEvent): void {
    const body = objectField(event, 'message');
    if (!messages.start(ctx, stringField(body, 'id'), message !== undefined)) {
      ctx.report(
        'provider.block-started-twice',
        `message_start in event ${ctx.frame.seq} starts message ${messageId} again while it is open; decoded as one message.`,
      );
      ctx.wire('message_start', event, unified('stream.message_start', ids()));
      return;
    }
    if (message) {
      blocks.endMessage(`before the next message_start (event ${ctx.frame.seq})`);
      message.status = 'cut';
      emitSummary(ctx);
    }
    messageId = stringField(body, 'id');
    message = new MessageClock(ctx.frame.receivedAt);
    message.id = messageId;
    message.model = stringField(body, 'model');
    message.addUsage(body['usage']);
    new ProviderEventContext(ctx.frame, callbacks, messageId).wire(
      'message_start',
      event,
      unified('stream.message_start', ids()),
    );
  }

  function startBlock(ctx: ProviderEventContext, event: WireEvent): void {
    const index = integerField(event, 'index');
    const start = objectField(event, 'content_block');
    const blockType = stringField(start, 'type');
    if (index === undefined) return missingIndex(ctx, event);
    const block: OpenBlock = {
      type: blockType,
      frame: ctx.frame.seq,
      at: ctx.at,
      id: stringField(start, 'id'),
      name: stringField(start, 'name'),
      toolUseId: stringField(start, 'tool_use_id'),
      start,
      input: [],
    };
    const previous = blocks.start(index, block);
    if (previous)
      ctx.report(
        'provider.block-started-twice',
        `content_block_start in event ${ctx.frame.seq} starts block ${index} again while the ${previous.type} block started in event ${previous.frame} is open; the new block replaces it.`,
      );
    const streamed = STREAMED[blockType];
    if (streamed) {
      ctx.emit(
        { type: streamed.type, final: false, delta: '', extras: { index }, control: 'block-open' },
        unified('stream.content_block_start', ids(index), { kind: blockType, channel: streamed.channel }),
      );
      const initial = start[blockType];
      if (typeof initial === 'string' && initial !== '')
        ctx.emit({ type: streamed.type, final: false, delta: initial, extras: {} });
      return;
    }
    const tool = TOOL_USE[blockType];
    if (tool) {
      const unifiedTool: UnifiedTool = { kind: tool.kind, name: block.name };
      if (tool.kind === 'mcp' && typeof start['server_name'] === 'string') unifiedTool.builtin = start['server_name'];
      ctx.wire(
        'content_block_start',
        event,
        unified('stream.tool_call_start', ids(index, block), { kind: blockType, tool: unifiedTool }),
      );
      return;
    }
    // A server tool result arrives whole in its start event: its row is that frame (its bytes
    // are the result's), and the stop event that follows is shown as what it is.
    if (isToolResultBlock(blockType)) return toolResult(ctx, index, block);
    if (blockType !== 'redacted_thinking')
      reportUnknown(
        ctx,
        `block:${blockType}`,
        `content_block_start in event ${ctx.frame.seq} starts a block of type ${jsonText(blockType)}, which is not a known Anthropic block type; kept and shown as a block of that type.`,
      );
    ctx.wire(
      'content_block_start',
      event,
      unified('stream.content_block_start', ids(index, block), { kind: blockType }),
    );
  }

  function blockDelta(ctx: ProviderEventContext, event: WireEvent): void {
    impliedBlock(ctx, event);
    const found = addressedBlock(ctx, event);
    if (!found) return;
    const { index, block } = found;
    const delta = objectField(event, 'delta');
    const deltaType = stringField(delta, 'type');
    const kind = DELTA_KINDS[deltaType];
    message?.token(ctx.frame.receivedAt);
    if (deltaType === 'text_delta' || deltaType === 'thinking_delta') {
      const field = deltaType === 'text_delta' ? 'text' : 'thinking';
      const text = delta[field];
      const streamed = STREAMED[block.type];
      if (typeof text === 'string' && streamed)
        return streamedDelta(
          ctx,
          index,
          block,
          streamed,
          deltaType === 'text_delta' ? 'text_delta' : 'reasoning_delta',
          text,
        );
    } else if (deltaType === 'input_json_delta') {
      const partial = delta['partial_json'];
      if (typeof partial === 'string') block.input.push(partial);
      ctx.wire('content_block_delta', event, unified('stream.tool_call_input.delta', ids(index, block), { kind }));
      return;
    } else if (deltaType === 'citations_delta') {
      const citation = objectField(delta, 'citation');
      const { delta: cited, extras } = citationEnvelopeParts(citation);
      ctx.emit(
        { type: KIND.citation, final: true, delta: cited, extras },
        unified('stream.content_block_delta', ids(index), { kind, channel: 'output_text' }),
      );
      return;
    } else if (kind === undefined) {
      reportUnknown(
        ctx,
        `delta:${deltaType}`,
        `content_block_delta in event ${ctx.frame.seq} has delta type ${jsonText(deltaType)}, which is not a known Anthropic delta type; kept as a provider event.`,
      );
    }
    const channel: ContentChannel | undefined =
      deltaType === 'signature_delta' ? 'reasoning' : STREAMED[block.type]?.channel;
    ctx.wire(
      'content_block_delta',
      event,
      unified('stream.content_block_delta', ids(index), { kind: kind ?? deltaType, ...(channel ? { channel } : {}) }),
    );
  }

  /** A text or thinking delta of an open text or thinking block: streamed content. */
  function streamedDelta(
    ctx: ProviderEventContext,
    index: number,
    block: OpenBlock,
    streamed: (typeof STREAMED)[string],
    kind: DeltaKind,
    text: string,
  ): void {
    if (block.deltaEvent?.kind !== kind)
      block.deltaEvent = unified('stream.content_block_delta', ids(index), { kind, channel: streamed.channel });
    ctx.envelope(streamed.type, false, text, NO_EXTRAS, undefined, block.deltaEvent);
  }

  function stopBlock(ctx: ProviderEventContext, event: WireEvent): void {
    const found = addressedBlock(ctx, event);
    if (!found) return;
    const { index, block } = found;
    blocks.stop(index);
    const streamed = STREAMED[block.type];
    if (streamed) {
      ctx.emit(
        { type: streamed.type, final: true, delta: '', extras: {} },
        unified('stream.content_block_stop', ids(index), { kind: block.type, channel: streamed.channel }),
      );
      return;
    }
    const tool = TOOL_USE[block.type];
    if (tool) {
      const input = block.input.join('');
      checkToolArguments(
        ctx,
        input,
        `The ${block.type} block ${index} (${block.name || 'unnamed'}, ${block.id || 'no id'})`,
      );
      const payload = input === '' ? jsonText(block.start['input'] ?? {}) : input;
      ctx.emit(
        { type: tool.type, final: true, delta: payload, extras: { id: block.id, name: block.name } },
        unified('stream.tool_call_stop', ids(index, block), { kind: block.type, phase: 'completed' }),
      );
      return;
    }
    if (isToolResultBlock(block.type)) {
      ctx.wire(
        'content_block_stop',
        event,
        unified('stream.content_block_stop', ids(index, block), { kind: block.type }),
      );
      return;
    }
    // Redacted thinking and block types this version does not know: the start's block, kept whole.
    ctx.emit(
      { type: block.type || 'unknown_block', final: true, delta: jsonText(block.start), extras: { index } },
      unified('stream.content_block_stop', ids(index, block), { kind: block.type }),
    );
  }

  /** A server or MCP tool result block: its content, whole in the start's block, as one server_tool_result. */
  function toolResult(ctx: ProviderEventContext, index: number, block: OpenBlock): void {
    const content = block.start['content'];
    const failed = isErrorContent(content);
    ctx.emit(
      {
        type: 'server_tool_result',
        final: true,
        delta:
          content === undefined || content === null ? '' : typeof content === 'string' ? content : jsonText(content),
        extras: { id: block.toolUseId, name: block.type },
      },
      unified('stream.tool_call_result', ids(index, block), {
        kind: block.type,
        phase: failed ? 'failed' : 'completed',
        ...(failed ? { error: content } : {}),
        search_results: searchResults(content),
      }),
    );
  }

  function messageDelta(ctx: ProviderEventContext, event: WireEvent): void {
    const delta = objectField(event, 'delta');
    const stopReason = typeof delta['stop_reason'] === 'string' ? delta['stop_reason'] : undefined;
    if (message) {
      message.addUsage(event['usage']);
      if (stopReason !== undefined) message.stopReason = stopReason;
    }
    const usage = objectField(event, 'usage');
    ctx.wire(
      'message_delta',
      event,
      unified('stream.message_delta', ids(), {
        stop_reason: stopReason,
        usage: Object.keys(usage).length > 0 ? usage : undefined,
      }),
    );
  }

  function messageStop(ctx: ProviderEventContext, event: WireEvent): void {
    messages.end(ctx);
    blocks.endMessage(`before message_stop (event ${ctx.frame.seq})`);
    ctx.wire(
      'message_stop',
      event,
      unified('stream.message_stop', ids(), { stop_reason: message?.stopReason, phase: 'completed' }),
    );
    if (message) message.status = 'completed';
    emitSummary(ctx);
    callbacks.onStreamEnd?.({ event: 'message_stop' });
  }

  function apiError(ctx: ProviderEventContext, event: WireEvent): void {
    messages.end(ctx);
    const error = objectField(event, 'error');
    const errorType = stringField(error, 'type') || 'error';
    callbacks.onStreamEnd?.({
      event: 'error',
      error: `${errorType}: ${stringField(error, 'message') || jsonText(event['error'] ?? event)}`,
    });
    const first =
      events === 1 ? ' as the first event, before any message started (the request was accepted, then failed)' : '';
    ctx.report(
      'provider.api-error',
      `The API sent an ${errorType} error${first}: ${stringField(error, 'message') || jsonText(event['error'] ?? event)}`,
    );
    ctx.emit(
      { type: KIND.error, final: true, delta: jsonText(event['error'] ?? event), extras: {} },
      unified('stream.error', ids(), { error: event['error'] ?? event, phase: 'failed' }),
    );
    blocks.discardMessage();
    if (message) {
      message.status = 'failed';
      message.error = event['error'];
      emitSummary(ctx);
    }
  }

  function emitSummary(ctx: ProviderEventContext): void {
    if (!message) return;
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(message.summary(ctx.frame.receivedAt)),
      extras: { id: message.id },
    });
    message = undefined;
  }

  /**
   * A text or thinking delta for a block no content_block_start of this message started (a
   * proxied or hand-trimmed stream): reported, and the block is started from the delta, so
   * its text is kept in a block of its own and never dropped. Not while another block is
   * open: blocks stream one at a time, so a stray delta inside another block is shown as the
   * provider event it is rather than cut that block off.
   */
  function impliedBlock(ctx: ProviderEventContext, event: WireEvent): void {
    const index = integerField(event, 'index');
    const deltaType = stringField(objectField(event, 'delta'), 'type');
    const blockType = deltaType === 'text_delta' ? 'text' : deltaType === 'thinking_delta' ? 'thinking' : undefined;
    if (index === undefined || blockType === undefined || blocks.state(index) !== 'unknown' || blocks.anyOpen()) return;
    ctx.report(
      'provider.block-not-started',
      `content_block_delta in event ${ctx.frame.seq} is for block ${index}, which no content_block_start of this message started; its text is kept in a ${blockType} block of its own.`,
    );
    startBlock(ctx, { type: 'content_block_start', index, content_block: { type: blockType } });
  }

  /** The open block a delta or stop event addresses; reports and shows the event when there is none. */
  function addressedBlock(
    ctx: ProviderEventContext,
    event: WireEvent,
  ): { index: number; block: OpenBlock } | undefined {
    const index = integerField(event, 'index');
    if (index === undefined) {
      missingIndex(ctx, event);
      return undefined;
    }
    const block = blocks.get(index);
    if (block) return { index, block };
    const type = stringField(event, 'type');
    if (blocks.state(index) === 'stopped')
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

  function missingIndex(ctx: ProviderEventContext, event: WireEvent): void {
    const type = stringField(event, 'type');
    ctx.report(
      'provider.block-not-started',
      `${type} in event ${ctx.frame.seq} has no integer index, so it belongs to no block; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }

  function reportUnknown(ctx: ProviderEventContext, key: string, text: string): void {
    if (unknownReported.has(key)) return;
    unknownReported.add(key);
    ctx.report('provider.unknown-event', `${text} Later ones are not reported again.`);
  }

  return {
    id: 'anthropic-messages',
    push,
    end() {
      blocks.endMessage('before the stream ended');
      if (!messages.ended && events > 0 && lastFrame) {
        const at = { byteStart: lastFrame.byteEnd };
        callbacks.onDiagnostic({
          rule: 'provider.missing-terminal',
          message:
            'The stream ended without message_stop (or an error event): the response was cut off or the connection dropped.',
          at,
        });
        if (message) {
          message.status = 'cut';
          emitSummary(new ProviderEventContext(lastFrame, callbacks, messageId));
        }
      }
    },
  };
}

/** The `web_search_result` entries of a result's content, as `{url, title}`; undefined when there are none. */
function searchResults(content: unknown): { url: string; title: string }[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const results = content.filter(
    (r): r is Record<string, unknown> =>
      typeof r === 'object' && r !== null && (r as Record<string, unknown>)['type'] === 'web_search_result',
  );
  return results.length > 0
    ? results.map((r) => ({
        url: typeof r['url'] === 'string' ? r['url'] : '',
        title: typeof r['title'] === 'string' ? r['title'] : '',
      }))
    : undefined;
}

/** A tool result whose content is an error object (`web_search_tool_result_error`, `*_error`…). */
function isErrorContent(content: unknown): boolean {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return false;
  const type = (content as Record<string, unknown>)['type'];
  return typeof type === 'string' && type.endsWith('_error');
}
