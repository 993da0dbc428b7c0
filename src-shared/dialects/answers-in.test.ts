import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../src-main/testing/provider-streams';
import { decodeBytes } from '../pipeline/session-decoder';
import { answersByName } from './provider/conversation';
import { DIALECT_REGISTRY } from './registry';
import type { ClientToolAnswer } from './types';

/**
 * `clientTools.answersIn` is the inverse of `continueBody`: what a continuation sent reads back
 * as the answers given (a replay offers them as the recorded answers). Every dialect that has
 * it, from its demo captures that pause, with a body of the shape its API takes.
 */

const CASES: readonly { fixture: string; previousBody: unknown }[] = [
  { fixture: 'ai-sdk-ui/client-tool.sse', previousBody: { id: 'c', messages: [] } },
  { fixture: 'ai-sdk-ui/client-tool.txt', previousBody: { id: 'c', messages: [] } },
  { fixture: 'ai-sdk-ui/tool-approval.sse', previousBody: { id: 'c', messages: [] } },
  { fixture: 'ag-ui/frontend-tool.sse', previousBody: { threadId: 't', runId: 'r', messages: [] } },
  { fixture: 'anthropic-messages/tool-use.sse', previousBody: { model: 'm', messages: [] } },
  { fixture: 'openai-chat/parallel-tools.sse', previousBody: { model: 'm', messages: [] } },
  { fixture: 'openai-responses/builtin-tools.sse', previousBody: { model: 'm', input: 'x' } },
  // Gemini's and Ollama's answers name their call's tool, not its id: read back by name, in order.
  { fixture: 'gemini/parallel-calls.sse', previousBody: { contents: [] } },
  { fixture: 'ollama/tool-call.txt', previousBody: { model: 'm', messages: [] } },
];

describe.each(CASES)('$fixture: the answers a continuation sent read back as they were given', (c) => {
  const result = decodeBytes(readProviderFixture(c.fixture));
  const pause = result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
  const continuation = DIALECT_REGISTRY.get(result.formats[0] ?? '')?.clientTools;

  it('round trip', () => {
    const calls = pause?.pendingTools ?? [];
    expect(calls.length).toBeGreaterThan(0);
    const answers: ClientToolAnswer[] = calls.map((call, i) =>
      call.approvalId !== undefined
        ? { toolUseId: call.toolUseId, content: `reason ${i}`, approved: i % 2 === 0 }
        : { toolUseId: call.toolUseId, content: `{"answer":${i}}` },
    );
    const body = continuation!.continueBody({
      previousBody: JSON.stringify(c.previousBody),
      calls,
      answers,
      pause: pause?.parsed,
    });
    const read = continuation!.answersIn!(body, calls) ?? [];
    expect(answers.map((a) => read.find((r) => r.toolUseId === a.toolUseId))).toEqual(answers);
  });

  it('must not: a body that is not a continuation of this API reads as none', () => {
    expect(continuation!.answersIn!('not json', [])).toBeNull();
    expect(continuation!.answersIn!('{"other": []}', [])).toBeNull();
  });
});

it('answers that name their tool go to its calls in the order they came, one each', () => {
  const calls = [
    { toolUseId: 'a', name: 'get_weather', input: {} },
    { toolUseId: 'b', name: 'get_time', input: {} },
    { toolUseId: 'c', name: 'get_weather', input: {} },
  ];
  const named = (name: string, content: string) => ({ name, answer: { content } });
  expect(
    answersByName(calls, [
      named('get_weather', '1'),
      named('get_weather', '2'),
      named('get_time', '3'),
      named('x', '4'),
    ]),
  ).toEqual([
    { toolUseId: 'a', content: '1' },
    { toolUseId: 'c', content: '2' },
    { toolUseId: 'b', content: '3' },
  ]);
});
