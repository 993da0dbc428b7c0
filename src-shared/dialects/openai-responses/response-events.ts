import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { MessageClock } from '../provider/message-summary';
import type { ResponsesStream } from './stream-state';
import { recordTerminalOutcome } from './terminal-outcome';
import { customToolNames } from './declared-tools';
import { endOpenItems } from './item-events';
import type { PausedResponse } from './client-calls';

/*
 * A response's life: created (or the first lifecycle event of a capture that lacks it), its
 * status events, its terminal event (completed, failed, incomplete) or a top-level error,
 * and the `message` envelope that sums it up.
 */

/** response.created, .queued, .in_progress: a response starts (or goes on). */
export function lifecycle(s: ResponsesStream, ctx: ProviderEventContext, type: string, event: WireEvent): void {
  const body = objectField(event, 'response');
  let response = s.message;
  if (type === 'response.created' || !response) {
    if (!s.messages.start(ctx, stringField(body, 'id'), response !== undefined))
      return lifecycleEvent(s, ctx, type, event);
    if (response) {
      s.items.endMessage(`before the next response.created (event ${ctx.frame.seq})`);
      s.parts.endMessage(`before the next response.created (event ${ctx.frame.seq})`);
      s.cutMessage(ctx);
    }
    response = s.openMessage(stringField(body, 'id'), ctx.frame.receivedAt);
    s.clientCalls = [];
    s.waiting = undefined;
    s.customTools = undefined;
    s.notStoredItems = undefined;
  }
  // The response echoes its request's tools: which custom tools the client defined (declared-tools.ts).
  if ('tools' in body) s.customTools = customToolNames(body['tools']);
  if (body['store'] === false) s.notStoredItems ??= [];
  response.model = stringField(body, 'model') || response.model;
  response.status = stringField(body, 'status') || response.status;
  lifecycleEvent(s, ctx, type, event);
}

function lifecycleEvent(s: ResponsesStream, ctx: ProviderEventContext, type: string, event: WireEvent): void {
  const family = type === 'response.created' ? 'stream.message_start' : 'stream.message_delta';
  s.contextFor(ctx.frame).wire(
    type,
    event,
    unified(family, { response_id: s.messageId }, { phase: type.slice('response.'.length) }),
  );
}

/** response.completed, .failed or .incomplete: the response ends, summed up. */
export function terminal(s: ResponsesStream, ctx: ProviderEventContext, type: string, event: WireEvent): void {
  s.messages.end(ctx);
  const body = objectField(event, 'response');
  const id = stringField(body, 'id');
  // The API follows an error event with the response's response.failed: the error summed the
  // response up already, so its terminal event ends the stream without a second summary.
  const summed = !s.message && id !== '' && id === s.erroredResponse;
  const response = summed ? new MessageClock(0) : (s.message ?? s.openMessage(id, 0));
  const end = s.contextFor(ctx.frame);
  const streamEnd = recordTerminalOutcome(response, type, body, end);
  if (type === 'response.completed') {
    endOpenItems(s, end, body['output'], `before ${type} (event ${ctx.frame.seq})`);
    s.items.endMessage(`before ${type} (event ${ctx.frame.seq})`);
    s.parts.endMessage(`before ${type} (event ${ctx.frame.seq})`);
  } else {
    // Reported as a failed or incomplete response already; its open items are cut short.
    s.items.discardMessage();
    s.parts.discardMessage();
  }
  const phase = type.slice('response.'.length);
  s.callbacks.onStreamEnd?.(streamEnd);
  end.wire(
    type,
    event,
    unified(
      'stream.message_stop',
      { response_id: s.messageId },
      { phase, stop_reason: response.stopReason, usage: response.usage, error: body['error'] ?? undefined },
    ),
  );
  s.emitSummary(end);
  s.waiting =
    type === 'response.completed' && s.clientCalls.length > 0
      ? { responseId: s.messageId, calls: s.clientCalls, ...notStoredOutput(s, body) }
      : undefined;
  s.clientCalls = [];
}

/**
 * A response the API did not keep (`"store": false`, as it echoes its request) is continued by
 * sending the conversation again, its output items among it: the pause keeps them
 * (client-calls.ts), as response.completed gives them, or as their done events did when it
 * gives none. A stored response is named by its id, and its pause carries none.
 */
function notStoredOutput(s: ResponsesStream, body: WireEvent): Pick<PausedResponse, 'output'> {
  if (body['store'] !== false && s.notStoredItems === undefined) return {};
  const given = body['output'];
  const output = Array.isArray(given) && given.length > 0 ? given : (s.notStoredItems ?? []);
  return output.length > 0 ? { output } : {};
}

/**
 * A top-level `error` event: the stream ends by it. Recorded streams nest the error in `error`
 * (`{type, code, message, param}`); the API reference shows its fields beside the event's own.
 */
export function apiError(s: ResponsesStream, ctx: ProviderEventContext, event: WireEvent): void {
  s.messages.end(ctx);
  const first = s.events === 1 ? ' as the first event' : '';
  const { type: _type, sequence_number: _sequence, ...fields } = event;
  const error = isJsonObject(event['error']) ? event['error'] : fields;
  const code = stringField(error, 'code');
  const message = stringField(error, 'message') || jsonText(error);
  s.callbacks.onStreamEnd?.({ event: 'error', error: `${code || 'error'}: ${message}` });
  ctx.report('provider.api-error', `The API sent an error${code ? ` (${code})` : ''}${first}: ${message}`);
  ctx.emit(
    { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
    unified('stream.error', { response_id: s.messageId }, { error, phase: 'failed' }),
  );
  s.erroredResponse = s.message ? s.messageId : '';
  s.failMessage(ctx, error);
}
