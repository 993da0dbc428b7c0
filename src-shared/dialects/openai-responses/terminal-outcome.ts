import { jsonText } from '../../json/tree';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { MessageClock } from '../provider/message-summary';
import type { StreamEndReport } from '../types';

/**
 * What a terminal event (response.completed, .failed or .incomplete) says about how the
 * response ended: its model, status, usage, error or incomplete reason go into its summary,
 * a failed or incomplete response is reported, and the stream's end is returned with its
 * failure or what cut its output short, so a failed or incomplete run is never "done".
 */
export function recordTerminalOutcome(
  response: MessageClock,
  type: string,
  body: WireEvent,
  end: ProviderEventContext,
): StreamEndReport {
  response.model = stringField(body, 'model') || response.model;
  response.status = stringField(body, 'status') || type.slice('response.'.length);
  response.addUsage(body['usage']);
  response.moderation = body['moderation'];
  if (type === 'response.failed') {
    const error = objectField(body, 'error');
    response.error = body['error'];
    end.report(
      'provider.response-failed',
      `The response failed${stringField(error, 'code') ? ` (${stringField(error, 'code')})` : ''}: ${stringField(error, 'message') || 'no error message given'}`,
    );
  } else if (type === 'response.incomplete') {
    const details = objectField(body, 'incomplete_details');
    response.incompleteDetails = body['incomplete_details'];
    response.stopReason = stringField(details, 'reason') || undefined;
    end.report(
      'provider.response-incomplete',
      `The response ended incomplete: ${stringField(details, 'reason') || 'no reason given'}; its output is cut short.`,
    );
  }
  response.stopReason ??= response.status;
  if (type === 'response.failed') {
    // Named by its code, as an error event is (the status says "failed" already).
    const error = objectField(body, 'error');
    return {
      event: type,
      error: `${stringField(error, 'code') || 'failed'}: ${stringField(error, 'message') || 'no error message given'}`,
    };
  }
  if (type === 'response.incomplete')
    return { event: type, incomplete: `incomplete_details.reason ${jsonText(response.stopReason)}` };
  return { event: type };
}
