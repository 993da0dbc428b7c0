import { unified, type ContentChannel, type DeltaKind, type ToolKind, type UnifiedTool } from '../../envelope/unified';
import { NO_EXTRAS } from '../../envelope/types';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { citedText } from '../anthropic-raw/stream-events';
import { citationExtras } from '../provider/citation-extras';
import {
  checkToolArguments,
  integerField,
  objectField,
  stringField,
  type ProviderEventContext,
  type WireEvent,
} from '../provider/event-context';
import { isToolResultBlock, toolResult } from './server-tool-results';
import type { MessagesStream, OpenBlock } from './stream-state';

/*
 * The events of content blocks: a block's start, its deltas (text, thinking, signature, tool
 * input, citations) and its stop, which makes the block's envelopes: streamed text or
 * thinking, one tool call with its buffered input, or the block kept whole.
 */

/** Block types whose text streams as deltas, with the envelope type and channel they stream on. */
export const STREAMED: Readonly<Record<string, { type: EnvelopeKind; channel: ContentChannel }>> = {
  text: { type: KIND.text, channel: 'output_text' },
  thinking: { type: KIND.thinking, channel: 'reasoning' },
};

/** Tool-use blocks: the envelope type of the call and the unified tool kind. */
const TOOL_USE: Readonly<Record<string, { type: EnvelopeKind; kind: ToolKind }>> = {
  tool_use: { type: KIND.tool_call, kind: 'client' },
  server_tool_use: { type: KIND.server_tool_call, kind: 'server' },
  mcp_tool_use: { type: KIND.server_tool_call, kind: 'mcp' },
};

/**
 * Blocks kept whole and shown as they stand at their stop: redacted thinking (opaque data), a
 * model fallback (`from` and `to` models), a context compaction (its summary, streamed as
 * compaction_delta or given in the start). docs/protocols/provider-events.md, "Content blocks and
 * text".
 */
const KEPT_WHOLE: ReadonlySet<string> = new Set(['redacted_thinking', 'fallback', 'compaction']);

/** The citation's field its envelope carries as its delta. */
const CITED_TEXT: ReadonlySet<string> = new Set(['cited_text']);

const DELTA_KINDS: Readonly<Record<string, DeltaKind>> = {
  text_delta: 'text_delta',
  thinking_delta: 'reasoning_delta',
  signature_delta: 'signature_delta',
  input_json_delta: 'input_json_delta',
  citations_delta: 'citations_delta',
};

export function startBlock(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const index = integerField(event, 'index');
  const start = objectField(event, 'content_block');
  const blockType = stringField(start, 'type');
  if (index === undefined) return s.missingIndex(ctx, event);
  const block: OpenBlock = {
    type: blockType,
    frame: ctx.frame.seq,
    at: ctx.at,
    id: stringField(start, 'id'),
    name: stringField(start, 'name'),
    toolUseId: stringField(start, 'tool_use_id'),
    // A copy: a compaction block's deltas complete it.
    start: { ...start },
    input: [],
    kept: s.assistant.start(index, start),
  };
  s.contentStarted = true;
  const previous = s.blocks.start(index, block);
  if (previous)
    ctx.report(
      'provider.block-started-twice',
      `content_block_start in event ${ctx.frame.seq} starts block ${index} again while the ${previous.type} block started in event ${previous.frame} is open; the new block replaces it.`,
    );
  const streamed = STREAMED[blockType];
  if (streamed) {
    ctx.emit(
      { type: streamed.type, final: false, delta: '', extras: { index }, control: 'block-open' },
      unified('stream.content_block_start', s.ids(index), { kind: blockType, channel: streamed.channel }),
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
      unified('stream.tool_call_start', s.ids(index, block), { kind: blockType, tool: unifiedTool }),
    );
    return;
  }
  // A server tool result arrives whole in its start event: its row is that frame (its bytes
  // are the result's), and the stop event that follows is shown as what it is.
  if (isToolResultBlock(blockType)) return toolResult(s, ctx, index, block);
  // After a fallback the model it names answers the message: its summary says that one.
  const fallbackModel = blockType === 'fallback' ? stringField(objectField(start, 'to'), 'model') : '';
  if (s.message && fallbackModel !== '') s.message.model = fallbackModel;
  if (!KEPT_WHOLE.has(blockType))
    s.reportUnknown(
      ctx,
      `block:${blockType}`,
      `content_block_start in event ${ctx.frame.seq} starts a block of type ${jsonText(blockType)}, which is not a known Anthropic block type; kept and shown as a block of that type.`,
    );
  ctx.wire(
    'content_block_start',
    event,
    unified('stream.content_block_start', s.ids(index, block), { kind: blockType }),
  );
}

export function blockDelta(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  impliedBlock(s, ctx, event);
  const found = s.addressedBlock(ctx, event);
  if (!found) return;
  const { index, block } = found;
  const delta = objectField(event, 'delta');
  const deltaType = stringField(delta, 'type');
  const kind = DELTA_KINDS[deltaType];
  s.message?.token(ctx.frame.receivedAt);
  if (deltaType === 'text_delta' || deltaType === 'thinking_delta') {
    const field = deltaType === 'text_delta' ? 'text' : 'thinking';
    const text = delta[field];
    const streamed = STREAMED[block.type];
    if (typeof text === 'string' && streamed)
      return streamedDelta(
        s,
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
    ctx.wire(
      'content_block_delta',
      event,
      unified('stream.tool_call_input.delta', s.ids(index, block), { kind }),
      typeof partial === 'string' ? partial : '',
    );
    return;
  } else if (deltaType === 'citations_delta') {
    const citation = objectField(delta, 'citation');
    s.assistant.citation(index, citation);
    // Every field of its location, whatever its type, not only those the upstream formatter copies.
    const cited = citedText(citation);
    const extras = citationExtras(citation['type'], citation, CITED_TEXT);
    ctx.emit(
      { type: KIND.citation, final: true, delta: cited, extras },
      unified('stream.content_block_delta', s.ids(index), { kind, channel: 'output_text' }),
    );
    return;
  } else if (deltaType === 'compaction_delta' && block.type === 'compaction') {
    compactionDelta(s, index, block, delta);
  } else if (kind === undefined) {
    s.reportUnknown(
      ctx,
      `delta:${deltaType}`,
      `content_block_delta in event ${ctx.frame.seq} has delta type ${jsonText(deltaType)}, which is not a known Anthropic delta type; kept as a provider event.`,
    );
  }
  if (deltaType === 'signature_delta' && typeof delta['signature'] === 'string')
    s.assistant.append(index, 'signature', delta['signature']);
  const channel: ContentChannel | undefined =
    deltaType === 'signature_delta' ? 'reasoning' : STREAMED[block.type]?.channel;
  ctx.wire(
    'content_block_delta',
    event,
    unified('stream.content_block_delta', s.ids(index), { kind: kind ?? deltaType, ...(channel ? { channel } : {}) }),
  );
}

/** A text or thinking delta of an open text or thinking block: streamed content. */
export function streamedDelta(
  s: MessagesStream,
  ctx: ProviderEventContext,
  index: number,
  block: OpenBlock,
  streamed: (typeof STREAMED)[string],
  kind: DeltaKind,
  text: string,
): void {
  if (block.deltaEvent?.kind !== kind)
    block.deltaEvent = unified('stream.content_block_delta', s.ids(index), { kind, channel: streamed.channel });
  ctx.envelope(streamed.type, false, text, NO_EXTRAS, undefined, block.deltaEvent);
  s.assistant.text(block.kept, text);
}

export function stopBlock(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const found = s.addressedBlock(ctx, event);
  if (!found) return;
  const { index, block } = found;
  s.blocks.stop(index);
  s.assistant.stop(index);
  const streamed = STREAMED[block.type];
  if (streamed) {
    ctx.emit(
      { type: streamed.type, final: true, delta: '', extras: {} },
      unified('stream.content_block_stop', s.ids(index), { kind: block.type, channel: streamed.channel }),
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
    s.assistant.input(index, payload, block.type === 'tool_use' ? { id: block.id, name: block.name } : undefined);
    ctx.emit(
      { type: tool.type, final: true, delta: payload, extras: { id: block.id, name: block.name } },
      unified('stream.tool_call_stop', s.ids(index, block), { kind: block.type, phase: 'completed' }),
    );
    return;
  }
  if (isToolResultBlock(block.type)) {
    ctx.wire(
      'content_block_stop',
      event,
      unified('stream.content_block_stop', s.ids(index, block), { kind: block.type }),
    );
    return;
  }
  // Blocks kept whole (KEPT_WHOLE) and block types this version does not know: the start's
  // block, completed by its deltas (a compaction's summary).
  ctx.emit(
    { type: block.type || 'unknown_block', final: true, delta: jsonText(block.start), extras: { index } },
    unified('stream.content_block_stop', s.ids(index, block), { kind: block.type }),
  );
}

/**
 * A block its message ended with still open (max_tokens stopped the model inside a tool call's
 * input; the stream was cut). A tool call or a block kept whole is made only at its stop, so
 * what it got is emitted here, not final: its block stays open, shown as never finished, with
 * the call's name and id and its input as sent (neither checked nor parsed as a whole input).
 * Streamed text and thinking were shown as they came, and a tool result whole at its start.
 */
export function unfinishedBlock(ctx: ProviderEventContext, index: number, block: OpenBlock): void {
  const tool = TOOL_USE[block.type];
  if (tool) {
    // The start's input is only a placeholder (`{}`) once input deltas come.
    const given = block.start['input'];
    ctx.emit({
      type: tool.type,
      final: false,
      delta: block.input.length > 0 || given === undefined ? block.input.join('') : jsonText(given),
      extras: { id: block.id, name: block.name },
    });
    return;
  }
  if (STREAMED[block.type] || isToolResultBlock(block.type)) return;
  ctx.emit({ type: block.type || 'unknown_block', final: false, delta: jsonText(block.start), extras: { index } });
}

/**
 * A compaction_delta of a compaction block: its `content` is the next piece of the summary of
 * the context the API compacted; any other field (`encrypted_content`) replaces the block's, as
 * each delta carries it whole. Kept for the block shown at the stop and for the assistant message.
 */
function compactionDelta(s: MessagesStream, index: number, block: OpenBlock, delta: WireEvent): void {
  const { type: _type, content, ...fields } = delta;
  if (typeof content === 'string') {
    block.start['content'] = `${stringField(block.start, 'content')}${content}`;
    s.assistant.text(block.kept, content);
  }
  Object.assign(block.start, fields);
  s.assistant.assign(index, fields);
}

/**
 * A text or thinking delta for a block no content_block_start of this message started (a
 * proxied or hand-trimmed stream): reported, and the block is started from the delta, so
 * its text is kept in a block of its own and never dropped. Not while another block is
 * open: blocks stream one at a time, so a stray delta inside another block is shown as the
 * provider event it is rather than cut that block off.
 */
function impliedBlock(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const index = integerField(event, 'index');
  const deltaType = stringField(objectField(event, 'delta'), 'type');
  const blockType = deltaType === 'text_delta' ? 'text' : deltaType === 'thinking_delta' ? 'thinking' : undefined;
  if (index === undefined || blockType === undefined || s.blocks.state(index) !== 'unknown' || s.blocks.anyOpen())
    return;
  ctx.report(
    'provider.block-not-started',
    `content_block_delta in event ${ctx.frame.seq} is for block ${index}, which no content_block_start of this message started; its text is kept in a ${blockType} block of its own.`,
  );
  startBlock(s, ctx, { type: 'content_block_start', index, content_block: { type: blockType } });
}
