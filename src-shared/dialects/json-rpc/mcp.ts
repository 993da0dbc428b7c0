import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import { previewText } from '../../text/preview';
import type { Exchange } from './exchange';
import { idKey, showId, type RpcMessage } from './message';
import { exchangeIds, finish, type ExchangeOutput } from './output';

type Notification = Extract<RpcMessage, { kind: 'notification' }>;
type Request = Extract<RpcMessage, { kind: 'request' }>;
type Result = Extract<RpcMessage, { kind: 'result' }>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A notification of the server: progress (`notifications/progress`) is the exchange's
 * progress, checked to increase per token; every other one (logging's
 * `notifications/message`, list changes…) is shown as the event it is.
 */
export function mcpNotification(out: ExchangeOutput, exchange: Exchange, message: Notification): void {
  const { ctx } = out;
  const params = isJsonObject(message.params) ? message.params : {};
  const token = params['progressToken'];
  const progress = params['progress'];
  if (
    message.method !== 'notifications/progress' ||
    (typeof token !== 'string' && typeof token !== 'number') ||
    typeof progress !== 'number'
  ) {
    ctx.wire(message.method, message.body);
    return;
  }
  exchange.clock.token(ctx.frame.receivedAt);
  const total = params['total'];
  const said = params['message'];
  const previous = exchange.addProgress(idKey(token), {
    token,
    progress,
    total,
    message: said,
    frame: ctx.frame.seq,
  });
  if (previous)
    ctx.report(
      'json-rpc.progress-backwards',
      `Progress notification in event ${ctx.frame.seq} for token ${showId(token)} says ${progress}${typeof total === 'number' ? ` of ${total}` : ''}, after ${previous.progress} in event ${previous.frame}: progress must increase with each notification.`,
    );
  ctx.wire(
    message.method,
    message.body,
    unified('stream.tool_call_status', exchangeIds(exchange, { tool_call_id: String(token) }), {
      kind: 'progress',
      phase: 'in_progress',
      action: { progress, ...(total !== undefined ? { total } : {}), ...(said !== undefined ? { message: said } : {}) },
    }),
  );
}

/**
 * A request of the server to the client (`sampling/createMessage`, `elicitation/create`,
 * `roots/list`…): the client runs it and answers on a request of its own, so it is a call the
 * client makes, shown as a tool call named by the method with the params as its input.
 */
export function mcpServerRequest(out: ExchangeOutput, exchange: Exchange, message: Request): void {
  const id = message.id === null ? '' : String(message.id);
  exchange.serverRequests.push({ id: message.id, method: message.method });
  out.writer.close(out.ctx);
  out.ctx.emit(
    { type: KIND.tool_call, final: true, delta: jsonText(message.params ?? {}), extras: { id, name: message.method } },
    unified('stream.tool_call_start', exchangeIds(exchange, { tool_call_id: id }), {
      tool: { kind: 'client', name: message.method },
    }),
  );
}

/**
 * The response that ends an MCP stream. A result with a `content` array (`tools/call`) shows
 * each item as a block: text as text, images, audio, resources and links as blocks of their
 * type, `structuredContent` as JSON; `isError: true` says the tool failed while the exchange
 * succeeded. Any other result (initialize, tools/list…) is shown whole in the summary.
 */
export function mcpResult(out: ExchangeOutput, exchange: Exchange, message: Result): void {
  const { ctx } = out;
  const result = message.result;
  const content: unknown[] | undefined =
    isJsonObject(result) && Array.isArray(result['content']) ? result['content'] : undefined;
  const failed = isJsonObject(result) && result['isError'] === true;
  ctx.wire(
    'result',
    message.body,
    unified(
      content ? 'stream.tool_call_result' : 'stream.message_stop',
      exchangeIds(exchange),
      content ? { phase: failed ? 'failed' : 'completed' } : { phase: 'completed' },
    ),
  );
  if (!content || !isJsonObject(result)) {
    exchange.result = result;
    finish(out, exchange, { event: 'result' }, { status: 'completed', stopReason: 'result' });
    return;
  }
  exchange.clock.token(ctx.frame.receivedAt);
  content.forEach((item, index) => contentItem(out, exchange, item, index));
  if ('structuredContent' in result)
    out.writer.part(ctx, 'structured_content', '', jsonText(result['structuredContent']));
  if (failed) {
    const first: unknown = content.find((item) => isJsonObject(item) && typeof item['text'] === 'string');
    ctx.report(
      'json-rpc.tool-error',
      `The tool result answering ${showId(message.id)} has isError: true: the tool failed${isJsonObject(first) ? ` (${previewText(text(first['text']))})` : ''}. The JSON-RPC exchange itself succeeded.`,
    );
  }
  finish(
    out,
    exchange,
    { event: 'result' },
    failed ? { status: 'tool_error', stopReason: 'isError' } : { status: 'completed', stopReason: 'result' },
  );
}

/** One item of a tool result's `content`. */
function contentItem(out: ExchangeOutput, exchange: Exchange, item: unknown, index: number): void {
  const { ctx, writer } = out;
  if (!isJsonObject(item)) return writer.part(ctx, 'content', '', jsonText(item));
  const type = text(item['type']);
  switch (type) {
    case 'text':
      return writer.whole(
        ctx,
        `content:${index}`,
        '',
        text(item['text']),
        exchangeIds(exchange, { content_index: index }),
      );
    case 'image':
    case 'audio':
      // A data URL: what the item is, readable and copyable as one string.
      return writer.part(
        ctx,
        type,
        text(item['mimeType']),
        `data:${text(item['mimeType'])};base64,${text(item['data'])}`,
      );
    case 'resource': {
      const resource = isJsonObject(item['resource']) ? item['resource'] : {};
      const body = typeof resource['text'] === 'string' ? resource['text'] : jsonText(resource);
      return writer.part(ctx, 'resource', text(resource['uri']), body);
    }
    case 'resource_link':
      return writer.part(ctx, 'resource_link', text(item['name']) || text(item['uri']), jsonText(item));
    default:
      return writer.part(ctx, type || 'content', '', jsonText(item));
  }
}
