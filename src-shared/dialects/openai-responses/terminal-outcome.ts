import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { MessageClock } from '../provider/message-summary';

/**
 * What a terminal event (response.completed, .failed or .incomplete) says about how the
 * response ended: its model, status, usage, error or incomplete reason go into its summary,
 * a failed or incomplete response is reported, and the failure is returned for the stream's
 * end status (undefined when the response completed), so a cut or failed run is never "done".
 */
export function recordTerminalOutcome(
  response: MessageClock,
  type: string,
  body: WireEvent,
  end: ProviderEventContext,
): string | undefined {
  response.model = stringField(body, 'model') || response.model;
  response.status = stringField(body, 'status') || type.slice('response.'.length);
  response.addUsage(body['usage']);
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
  return type === 'response.failed'
    ? `failed: ${stringField(objectField(body, 'error'), 'message') || 'no error message given'}`
    : type === 'response.incomplete'
      ? `incomplete: ${response.stopReason}`
      : undefined;
}
