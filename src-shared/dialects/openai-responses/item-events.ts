import { unified, type UnifiedTool } from '../../envelope/unified';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import {
  integerField,
  objectField,
  stringField,
  type ProviderEventContext,
  type WireEvent,
} from '../provider/event-context';
import type { ClientCall } from './client-calls';
import { emitDoneParts } from './done-parts';
import { emitItem, toolOf, type OpenItem } from './item-blocks';
import type { ResponsesStream } from './stream-state';
import { CALL_OUTPUT_ITEMS, CLIENT_RUN_ITEMS, clientRunInput, KNOWN_ITEMS, type InputStream } from './vocabulary';

/*
 * The events of output items: an item added and done (a message, reasoning, or a tool
 * call), a call's streamed arguments, input, code, commands or diff, a built-in or MCP call's
 * status phases, and the pieces of a built-in tool's result (partial images, shell output).
 */

/** The item as its event gives it, before any event of it was seen. */
function openItem(s: ResponsesStream, ctx: ProviderEventContext, type: string, item: WireEvent): OpenItem {
  const name = stringField(item, 'name');
  return {
    type,
    id: stringField(item, 'id'),
    name,
    callId: stringField(item, 'call_id'),
    frame: ctx.frame.seq,
    at: ctx.at,
    input: [],
    phases: [],
    ranByApi: type === 'custom_tool_call' && s.customTools !== undefined && !s.customTools.has(name),
  };
}

export function itemAdded(s: ResponsesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const index = integerField(event, 'output_index');
  const item = objectField(event, 'item');
  const itemType = stringField(item, 'type');
  if (index === undefined)
    return s.notAddressed(ctx, 'response.output_item.added', event, 'has no integer output_index');
  const open = openItem(s, ctx, itemType, item);
  const previous = s.items.start(index, open);
  if (previous)
    ctx.report(
      'provider.block-started-twice',
      `response.output_item.added in event ${ctx.frame.seq} adds output item ${index} again while the ${previous.type} item added in event ${previous.frame} is open; the new item replaces it.`,
    );
  if (!KNOWN_ITEMS.has(itemType))
    s.reportUnknown(
      ctx,
      `item:${itemType}`,
      `response.output_item.added in event ${ctx.frame.seq} adds an item of type ${jsonText(itemType)}, which this version does not know; kept and shown as a block of that type.`,
    );
  const tool = toolOf(open, item);
  const itemIds = s.ids(event, { item_id: open.id, ...(tool ? { tool_call_id: open.callId || open.id } : {}) });
  ctx.wire(
    'response.output_item.added',
    event,
    tool
      ? unified('stream.tool_call_start', itemIds, { kind: itemType, tool })
      : unified('stream.content_block_start', itemIds, { kind: itemType }),
  );
}

export function itemDone(s: ResponsesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const index = integerField(event, 'output_index');
  const item = objectField(event, 'item');
  const open = index === undefined ? undefined : s.items.get(index);
  if (index === undefined)
    // The item is whole in its done event: decoded all the same (the Codex CLI reads it so).
    ctx.report(
      'provider.block-not-started',
      `response.output_item.done in event ${ctx.frame.seq} has no integer output_index, so a client that places output items by it cannot place this one; decoded from its item alone.`,
    );
  else if (!open) {
    const why = s.items.state(index) === 'stopped' ? 'was already done' : 'was never added';
    ctx.report(
      s.items.state(index) === 'stopped' ? 'provider.delta-after-stop' : 'provider.block-not-started',
      `response.output_item.done in event ${ctx.frame.seq} is for output item ${index}, which ${why}; decoded from its item alone.`,
    );
  }
  if (index !== undefined) s.items.stop(index);
  const itemType = stringField(item, 'type') || open?.type || '';
  const done: OpenItem = open ?? openItem(s, ctx, itemType, item);
  const tool = toolOf(done, item);
  const status = stringField(item, 'status');
  const itemIds = s.ids(event, {
    item_id: done.id || stringField(item, 'id'),
    ...(tool ? { tool_call_id: done.callId || done.id } : {}),
  });
  const phase = status === 'failed' || status === 'incomplete' ? status : 'completed';
  ctx.wire(
    'response.output_item.done',
    event,
    tool
      ? unified('stream.tool_call_stop', itemIds, { kind: itemType, tool, phase, error: item['error'] ?? undefined })
      : unified('stream.content_block_stop', itemIds, { kind: itemType }),
  );
  emitDoneParts(s, ctx, index, item);
  emitItem(ctx, done, item);
  addClientCall(s, done, item);
  s.notStoredItems?.push(item);
}

/**
 * response.completed came while output items were open (recorded: MCP list_tools items of
 * which only one got its output_item.done). Each still open is reported as not done; one the
 * response's `output` holds at its index (the same type, and id where both give one) makes its
 * blocks from that item, as its done event would have, rather than being lost.
 */
export function endOpenItems(s: ResponsesStream, ctx: ProviderEventContext, output: unknown, why: string): void {
  if (!Array.isArray(output)) return;
  output.forEach((item: unknown, index) => {
    const open = s.items.get(index);
    if (!open || !isJsonObject(item)) return;
    const id = stringField(item, 'id');
    if (stringField(item, 'type') !== open.type || (id !== '' && open.id !== '' && id !== open.id)) return;
    s.items.stop(index);
    s.callbacks.onDiagnostic({
      rule: 'provider.block-not-stopped',
      message: `The ${open.type} output item ${index} added in event ${open.frame} got no done event ${why}; decoded from the item the response's output gives.`,
      at: open.at,
    });
    emitDoneParts(s, ctx, index, item);
    emitItem(ctx, open, item);
    addClientCall(s, open, item);
  });
}

/** A call the client answers (client-calls.ts), or the output that answers one in the stream. */
function addClientCall(s: ResponsesStream, done: OpenItem, item: WireEvent): void {
  const clientRun = CLIENT_RUN_ITEMS[done.type];
  if (clientRun) {
    const what = clientRunInput(clientRun, item);
    const checks = item['pending_safety_checks'];
    s.clientCalls.push({
      type: done.type as ClientCall['type'],
      callId: done.callId || done.id,
      name: clientRun.tool,
      input: what === undefined ? done.input.join('') : jsonText(what),
      ...(Array.isArray(checks) && checks.length > 0 ? { safetyChecks: checks } : {}),
    });
  } else if (
    done.type === 'function_call' ||
    (done.type === 'custom_tool_call' && !done.ranByApi) ||
    done.type === 'mcp_approval_request'
  ) {
    const field = item[done.type === 'custom_tool_call' ? 'input' : 'arguments'];
    s.clientCalls.push({
      type: done.type,
      // An approval request has no call id: its response names the item.
      callId: done.type === 'mcp_approval_request' ? done.id || stringField(item, 'id') : done.callId || done.id,
      name: done.name,
      input: typeof field === 'string' ? field : done.input.join(''),
    });
  } else if (CALL_OUTPUT_ITEMS[done.type]) {
    // The API ran the call itself (a shell in its container): the client has nothing to answer.
    const callId = stringField(item, 'call_id') || done.callId;
    s.clientCalls = s.clientCalls.filter((call) => call.callId !== callId);
  }
}

/**
 * A call's streamed input (a delta, or the done event with the complete input): function or
 * MCP arguments, custom tool input, or content of what it runs (interpreter code, a shell
 * call's commands, a patch's diff; see INPUT_STREAMS).
 */
export function inputEvent(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  stream: InputStream,
  done: boolean,
): void {
  const index = integerField(event, 'output_index');
  const open = index === undefined ? undefined : s.items.get(index);
  const itemIds = s.ids(event, { tool_call_id: open ? open.callId || open.id : stringField(event, 'item_id') });
  if (!open) {
    if (index !== undefined && s.items.state(index) === 'stopped')
      ctx.report(
        'provider.delta-after-stop',
        `${type} in event ${ctx.frame.seq} is for output item ${index}, which was already done; kept as a provider event.`,
      );
    else
      ctx.report(
        'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} is for output item ${index ?? '(none)'}, which was never added; kept as a provider event.`,
      );
    ctx.wire(type, event);
    return;
  }
  const content = stream.content;
  if (!done) {
    const fragment = stringField(event, 'delta');
    open.input.push(fragment);
    s.message?.token(ctx.frame.receivedAt);
    ctx.wire(
      type,
      event,
      content
        ? unified('stream.content_block_delta', itemIds, { kind: `${content}_delta` })
        : unified('stream.tool_call_input.delta', itemIds, { kind: 'input_json_delta' }),
      fragment,
    );
    return;
  }
  const complete = event[stream.field];
  if (typeof complete === 'string') open.input.splice(0, open.input.length, complete);
  ctx.wire(
    type,
    event,
    content
      ? unified('stream.content_block_stop', itemIds, { kind: content })
      : unified('stream.tool_call_status', itemIds, { phase: 'result', kind: 'input_done' }),
  );
}

/** A built-in or MCP call's status event (in_progress, searching, completed…): a phase of its item. */
export function statusEvent(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  call: string,
  phase: string,
): void {
  const index = integerField(event, 'output_index');
  const open = index === undefined ? undefined : s.items.get(index);
  open?.phases.push(phase);
  const tool: UnifiedTool = call.startsWith('mcp')
    ? { kind: 'mcp', name: call }
    : { kind: 'builtin', builtin: call.replace(/_call$/, '') };
  const action = isRecord(event['action']) ? event['action'] : undefined;
  ctx.wire(
    type,
    event,
    unified('stream.tool_call_status', s.ids(event, { tool_call_id: open?.id ?? stringField(event, 'item_id') }), {
      tool,
      phase,
      action,
    }),
  );
}

/**
 * A piece of a built-in tool's result as it streams, shown as its event (the item's done holds
 * the whole result): a partial image of an image generation call, or the output of a shell
 * command the API ran in its container.
 */
export function resultEvent(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  builtin: string,
  kind: string,
  phase: string,
): void {
  ctx.wire(
    type,
    event,
    unified('stream.tool_call_result', s.ids(event, { tool_call_id: stringField(event, 'item_id') }), {
      kind,
      tool: { kind: 'builtin', builtin },
      phase,
    }),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
