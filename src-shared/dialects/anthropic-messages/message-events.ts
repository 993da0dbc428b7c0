import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import { cutShortBy } from '../provider/cut-short';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { unfinishedBlock } from './block-events';
import { AssistantBlocks } from './client-calls';
import type { MessagesStream } from './stream-state';

/*
 * A message's life: message_start, message_delta (stop reason, usage), message_stop or an
 * error event, and the `message` envelope that sums it up.
 */

export function messageStart(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const body = objectField(event, 'message');
  if (!s.messages.start(ctx, stringField(body, 'id'), s.message !== undefined)) {
    ctx.report(
      'provider.block-started-twice',
      `message_start in event ${ctx.frame.seq} starts message ${s.messageId} again while it is open; decoded as one message.`,
    );
    ctx.wire('message_start', event, unified('stream.message_start', s.ids()));
    return;
  }
  if (s.message) {
    endBlocks(s, ctx, `before the next message_start (event ${ctx.frame.seq})`);
    s.cutMessage(ctx);
  }
  const message = s.openMessage(stringField(body, 'id'), ctx.frame.receivedAt);
  s.assistant = new AssistantBlocks();
  s.waiting = undefined;
  s.stopReasonFrame = undefined;
  s.stopDetails = undefined;
  s.contentStarted = false;
  message.model = stringField(body, 'model');
  message.addUsage(body['usage']);
  message.container = body['container'];
  message.addInputTransformations(body['input_transformations']);
  s.contextFor(ctx.frame).wire('message_start', event, unified('stream.message_start', s.ids()));
}

/** The events inside a message, after its message_start. */
export const MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

/**
 * An event of a message came before any message_start (a capture that begins inside the
 * message): reported, as an SDK fails on it, and the message is opened here, its id and model
 * unknown, so that its stop reason, usage and pause are read as they come.
 */
export function beganInsideMessage(s: MessagesStream, ctx: ProviderEventContext, type: string): void {
  ctx.report(
    'provider.block-not-started',
    `${type} in event ${ctx.frame.seq} comes before any message_start: the message was never started (a capture that begins inside it), and a client SDK fails on it. It is decoded as one message whose id and model are unknown.`,
  );
  s.messages.start(ctx, '', false);
  s.openMessage('', 0);
  s.assistant = new AssistantBlocks();
}

/** Stop reasons that mean the message's output was cut short, and by what (provider/cut-short.ts). */
const CUT_SHORT_BY: Readonly<Record<string, string>> = {
  max_tokens: 'the max_tokens limit',
  model_context_window_exceeded: "the model's context window",
  refusal: 'the streaming safety classifiers',
};

export function messageDelta(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const delta = objectField(event, 'delta');
  const stopReason = typeof delta['stop_reason'] === 'string' ? delta['stop_reason'] : undefined;
  if (s.message) {
    s.message.addUsage(event['usage']);
    // The container the message ran in (null until one is made): its id is what reuses it.
    if (isJsonObject(delta['container'])) s.message.container = delta['container'];
    s.message.addInputTransformations(event['input_transformations']);
    const applied = appliedContextEdits(event['context_management']);
    if (applied !== undefined) s.message.contextManagement = applied;
    if (stopReason !== undefined) {
      s.message.stopReason = stopReason;
      s.stopReasonFrame = ctx.frame.seq;
    }
    // Which of the request's stop sequences matched: the output ends just before it.
    if (typeof delta['stop_sequence'] === 'string') s.message.stopSequence = delta['stop_sequence'];
  }
  const cutBy = cutShortBy(CUT_SHORT_BY, stopReason);
  const details = objectField(delta, 'stop_details');
  if (stopReason !== undefined) {
    const { type: _type, ...given } = details;
    s.stopDetails = Object.keys(given).length > 0 ? given : undefined;
  }
  if (cutBy !== undefined)
    ctx.report(
      'provider.response-incomplete',
      `message_delta in event ${ctx.frame.seq} stops the message with stop_reason ${jsonText(stopReason)}: ${
        s.contentStarted ? `${cutBy} cut its output short` : `${cutBy} stopped it before any output`
      }${explained(details)}.`,
    );
  const usage = objectField(event, 'usage');
  ctx.wire(
    'message_delta',
    event,
    unified('stream.message_delta', s.ids(), {
      stop_reason: stopReason,
      usage: Object.keys(usage).length > 0 ? usage : undefined,
    }),
  );
}

/**
 * The message is over with blocks still open: what they got is kept (unfinishedBlock), and they
 * are reported as not stopped (`why` says when that became clear) unless what ended the message
 * explains them: a stop reason that cut its output short (max_tokens stops the model inside a
 * block), or an error (`why` undefined), each reported already.
 */
export function endBlocks(s: MessagesStream, ctx: ProviderEventContext, why: string | undefined): void {
  s.blocks.forEachOpen((index, block) => unfinishedBlock(ctx, index, block));
  if (why === undefined || cutShortBy(CUT_SHORT_BY, s.message?.stopReason) !== undefined) s.blocks.discardMessage();
  else s.blocks.endMessage(why);
}

export function messageStop(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  s.messages.end(ctx);
  endBlocks(s, ctx, `before message_stop (event ${ctx.frame.seq})`);
  ctx.wire(
    'message_stop',
    event,
    unified('stream.message_stop', s.ids(), { stop_reason: s.message?.stopReason, phase: 'completed' }),
  );
  const stopReason = s.message?.stopReason;
  const cutBy = cutShortBy(CUT_SHORT_BY, stopReason);
  if (s.message) {
    s.message.status = cutBy === undefined ? 'completed' : 'incomplete';
    if (cutBy !== undefined) s.message.incompleteDetails = { reason: stopReason, ...s.stopDetails };
  }
  s.emitSummary(ctx);
  s.waiting =
    stopReason === 'tool_use' || stopReason === 'pause_turn'
      ? { messageId: s.messageId, assistant: s.assistant, pauseTurn: stopReason === 'pause_turn' }
      : undefined;
  s.callbacks.onStreamEnd?.(
    cutBy === undefined
      ? { event: 'message_stop' }
      : {
          event: 'message_stop',
          incomplete: `stop_reason ${jsonText(stopReason)} (${cutBy}${s.contentStarted ? '' : ', before any output'})`,
          incompleteFrame: s.stopReasonFrame,
        },
  );
}

/**
 * The context management a message_delta reports beside its delta (`context_management`: the
 * `applied_edits` that cleared tool uses or thinking from the request, the tokens they freed),
 * as the API gave it; an empty list of edits (none applied) is nothing to keep.
 */
function appliedContextEdits(value: unknown): unknown {
  if (!isJsonObject(value)) return undefined;
  const edits = value['applied_edits'];
  const nothingApplied = Array.isArray(edits) && edits.length === 0 && Object.keys(value).length === 1;
  return nothingApplied ? undefined : value;
}

/** What a stop's `stop_details` says of it (a refusal's category and explanation), as a clause. */
function explained(details: Record<string, unknown>): string {
  const category = stringField(details, 'category');
  const explanation = stringField(details, 'explanation');
  if (category === '' && explanation === '') return '';
  return ` (${[category, explanation].filter((part) => part !== '').join(': ')})`;
}

/**
 * An `error` event: the stream ends by it. The API names the failed request beside the error
 * (`request_id`, what its support asks for): it is said in the finding and kept in the summary.
 */
export function apiError(s: MessagesStream, ctx: ProviderEventContext, event: WireEvent): void {
  s.messages.end(ctx);
  const error = objectField(event, 'error');
  const errorType = stringField(error, 'type') || 'error';
  const said = stringField(error, 'message') || jsonText(event['error'] ?? event);
  const requestId = stringField(event, 'request_id');
  s.callbacks.onStreamEnd?.({ event: 'error', error: `${errorType}: ${said}` });
  const first =
    s.events === 1 ? ' as the first event, before any message started (the request was accepted, then failed)' : '';
  ctx.report(
    'provider.api-error',
    `The API sent an ${errorType} error${first}: ${said}${requestId === '' ? '' : ` (request ${requestId})`}`,
  );
  endBlocks(s, ctx, undefined);
  ctx.emit(
    { type: KIND.error, final: true, delta: jsonText(event['error'] ?? event), extras: {} },
    unified('stream.error', s.ids(), { error: event['error'] ?? event, phase: 'failed' }),
  );
  if (s.message && requestId !== '') s.message.requestId = requestId;
  s.failMessage(ctx, event['error']);
}
