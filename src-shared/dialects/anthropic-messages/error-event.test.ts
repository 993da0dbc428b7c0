import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, providerEvent as ev } from '../../../src-main/testing/provider-streams';

/** An Anthropic `error` event ends the stream; what it says beside its error is kept. */
const start = ev('message_start', {
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: {} },
});
const text = [
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
];
const summaryOf = (result: ReturnType<typeof decodeProviderEvents>) =>
  result.blocks.find((b) => b.kind === 'message')?.parsed;
const apiError = (result: ReturnType<typeof decodeProviderEvents>) =>
  result.diagnostics.find((d) => d.rule === 'provider.api-error')?.message;

describe('an Anthropic error event', () => {
  // The shape the API sends mid-stream: `details` in the error, the request's id beside it.
  const overloaded = ev('error', {
    error: { details: null, type: 'overloaded_error', message: 'Overloaded' },
    request_id: 'req_011CWk7n2Ynp2yKSdBx5P3uH',
  });

  it("its request_id is said in provider.api-error and kept in the failed message's summary", () => {
    const result = decodeProviderEvents([start, ...text, overloaded]);
    expect(apiError(result)).toBe(
      'The API sent an overloaded_error error: Overloaded (request req_011CWk7n2Ynp2yKSdBx5P3uH)',
    );
    expect(summaryOf(result)).toMatchObject({
      status: 'failed',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_011CWk7n2Ynp2yKSdBx5P3uH',
    });
  });

  it('as the first event, with no message to sum up, the finding names the request', () => {
    expect(apiError(decodeProviderEvents([overloaded]))).toMatch(
      /first event.*: Overloaded \(request req_011CWk7n2Ynp2yKSdBx5P3uH\)$/,
    );
  });

  it('must not: an error without request_id names none, its summary without one', () => {
    const result = decodeProviderEvents([start, ev('error', { error: { type: 'api_error', message: 'boom' } })]);
    expect(apiError(result)).toBe('The API sent an api_error error: boom');
    expect(summaryOf(result)).not.toHaveProperty('request_id');
  });
});
