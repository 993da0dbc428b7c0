import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { geminiContinuation } from './client-calls';

/**
 * Gemini runs no function the client declares: a response finished well after functionCall
 * parts is a pause for the client's results, continued as the API's guide does: the contents,
 * the model's content as it streamed (signatures with it), a user content of functionResponses.
 */

const pauseOf = (bytes: Uint8Array) => decodeBytes(bytes).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
const chunk = (parts: unknown[], finishReason?: string) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    responseId: 'r1',
    modelVersion: 'gemini-2.5-flash',
  })}\r\n\r\n`;
const REQUEST = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }] });
const CALL = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-1' };

describe('the pause', () => {
  it('names each call, and carries the model content: text joined, each call with its signature', () => {
    const pause = pauseOf(
      encodeUtf8([chunk([{ text: 'Let me ' }]), chunk([{ text: 'check.' }]), chunk([CALL], 'STOP')].join('')),
    );
    expect(pause?.pendingTools?.map((t) => [t.name, t.input])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect((pause?.parsed as { content: unknown }).content).toEqual({
      role: 'model',
      parts: [{ text: 'Let me check.' }, CALL],
    });
  });

  it('a call whose arguments streamed (Vertex) is sent back whole, its first part’s signature with it', () => {
    const pause = pauseOf(readProviderFixture('gemini/streamed-args.sse'));
    const parts = (pause?.parsed as { content: { parts: Record<string, unknown>[] } }).content.parts;
    const call = parts.find((p) => 'functionCall' in p);
    expect(call?.['functionCall']).toMatchObject({
      name: expect.any(String) as unknown,
      args: expect.any(Object) as unknown,
    });
    expect(JSON.stringify(parts)).not.toContain('partialArgs');
  });

  it.each([
    ['a response finished on SAFETY', [chunk([CALL]), chunk([], 'SAFETY')]],
    ['calls cut before the finish', [chunk([CALL])]],
    [
      'an error after the finish',
      [chunk([CALL], 'STOP'), 'data: {"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}\r\n\r\n'],
    ],
    [
      'a call whose arguments never all came',
      [chunk([{ functionCall: { name: 'f', willContinue: true } }]), chunk([], 'STOP')],
    ],
  ])('must not: %s waits for no client', (_name, events) => {
    expect(pauseOf(encodeUtf8(events.join('')))).toBeUndefined();
  });
});

describe('the continuation', () => {
  const pause = () => pauseOf(readProviderFixture('gemini/parallel-calls.sse'))!;

  it('sends the contents again with the model content and a functionResponse per answer: JSON as it is, text under result, an error under error', () => {
    const calls = pause().pendingTools ?? [];
    const body = JSON.parse(
      geminiContinuation.continueBody({
        previousBody: REQUEST,
        calls,
        answers: [
          { toolUseId: calls[1]!.toolUseId, content: '14:05', isError: true },
          { toolUseId: calls[0]!.toolUseId, content: '{"temp":21}' },
        ],
        pause: pause().parsed,
      }),
    ) as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(body.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[1]?.parts[0]).toHaveProperty('thoughtSignature');
    // The demo's calls carry no id: none is made up for the API.
    expect(body.contents[2]?.parts).toEqual([
      { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
      { functionResponse: { name: 'get_local_time', response: { error: '14:05' } } },
    ]);
  });

  it('refuses a request without contents, saying why', () => {
    expect(() =>
      geminiContinuation.continueBody({
        previousBody: '{"prompt":"x"}',
        calls: [],
        answers: [],
        pause: pause().parsed,
      }),
    ).toThrow(/no JSON body with a contents array/);
  });
});
