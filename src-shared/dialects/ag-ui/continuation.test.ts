import { describe, expect, it } from 'vitest';
import { agUiClientTools, nextRunId } from './continuation';

const previous = {
  threadId: 'thread-demo',
  runId: 'run-demo-1',
  messages: [{ id: 'msg-user-1', role: 'user', content: 'Book me a train.' }],
  tools: [{ name: 'user_confirm', description: 'Ask', parameters: { type: 'object' } }],
  state: { plan: 'train' },
  context: [{ description: 'city', value: 'Paris' }],
  forwardedProps: { tenant: 'demo' },
  scenario: 'frontend-tool',
};
const calls = [
  { toolUseId: 'call-1', name: 'user_confirm', input: { message: 'Sure?' } },
  { toolUseId: 'call-2', name: 'pick_file', input: {} },
];

describe('how an AG-UI frontend continues a run paused on its tools', () => {
  it('a new RunAgentInput: same thread, new run, the assistant calls and one tool message per answer', () => {
    const body = JSON.parse(
      agUiClientTools.continueBody({
        previousBody: JSON.stringify(previous),
        calls,
        answers: [
          { toolUseId: 'call-2', content: 'no file chosen', isError: true },
          { toolUseId: 'call-1', content: 'yes' },
        ],
      }),
    ) as Record<string, unknown>;
    expect(body).toEqual({
      threadId: 'thread-demo',
      runId: 'run-demo-1-continued-1',
      state: { plan: 'train' },
      messages: [
        previous.messages[0],
        {
          id: 'assistant-call-1',
          role: 'assistant',
          toolCalls: [
            { id: 'call-1', type: 'function', function: { name: 'user_confirm', arguments: '{"message":"Sure?"}' } },
            { id: 'call-2', type: 'function', function: { name: 'pick_file', arguments: '{}' } },
          ],
        },
        { id: 'tool-call-1', role: 'tool', toolCallId: 'call-1', content: 'yes' },
        { id: 'tool-call-2', role: 'tool', toolCallId: 'call-2', content: 'no file chosen', error: 'no file chosen' },
      ],
      tools: previous.tools,
      context: previous.context,
      forwardedProps: previous.forwardedProps,
    });
  });

  it('keeps protocolVersion, defaults what the input left out, and counts continuations on', () => {
    const body = JSON.parse(
      agUiClientTools.continueBody({
        previousBody: JSON.stringify({ threadId: 't', runId: 'r-continued-1', protocolVersion: '1.1' }),
        calls: [calls[0]!],
        answers: [{ toolUseId: 'call-1', content: 'ok' }],
      }),
    ) as Record<string, unknown>;
    expect(body).toMatchObject({
      runId: 'r-continued-2',
      protocolVersion: '1.1',
      state: {},
      tools: [],
      context: [],
      forwardedProps: {},
    });
    expect(nextRunId(undefined)).toBe('run-continued-1');
  });

  it.each([
    ['a body that is no JSON object', '[1]', [], 'not a JSON object'],
    ['an input without threadId', '{"runId":"r"}', [], 'no string threadId'],
    ['messages that are no array', '{"threadId":"t","messages":{}}', [], 'not an array'],
    [
      'a call without an answer',
      JSON.stringify(previous),
      [{ toolUseId: 'call-1', content: 'yes' }],
      'no answer for call-2',
    ],
  ])('refuses %s with a message the user can act on', (_name, previousBody, answers, message) => {
    expect(() => agUiClientTools.continueBody({ previousBody, calls, answers })).toThrow(message);
  });
});
