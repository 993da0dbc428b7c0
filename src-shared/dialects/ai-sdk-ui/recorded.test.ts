import { describe, expect, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';

/** What the AI SDK's own test suite records its streams as (resources/fixtures/external, credited in its README). */
function decoded(name: string) {
  const result = decodeBytes(readExternalFixture(name));
  const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
  return { ...result, rules: rulesOf(result), end: end.kind };
}

describe('streams the AI SDK writes', () => {
  test.each([
    'vercel-ai/ui-message-stream-error.sse',
    'vercel-ai/ui-message-stream-tool.sse',
    'vercel-ai/data-stream-text.txt',
  ])('%s: the same at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readExternalFixture(name));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
  });

  test('the error response of toUIMessageStreamResponse: an error part, then finish-step and finish; ended by error', () => {
    const result = decoded('vercel-ai/ui-message-stream-error.sse');
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual(['provider.api-error']);
    expect(result.end).toBe('error');
    expect(result.blocks.map((b) => b.kind)).toEqual(['error', 'message']);
    expect(result.blocks[1]?.parsed).toMatchObject({ status: 'failed', stop_reason: 'error', error: 'error' });
  });

  test('a tool call with streamed input and its result: parsed input, linked result, done', () => {
    const result = decoded('vercel-ai/ui-message-stream-tool.sse');
    expect(result.rules).toEqual([]);
    expect(result.end).toBe('done');
    const [call, output] = result.blocks;
    expect(call).toMatchObject({ kind: 'tool_call', toolId: 'call-1', name: 'tool1', parsed: { value: 'value' } });
    expect(output).toMatchObject({ kind: 'tool_result', content: 'value-result', linkedBlock: call?.id });
    // The stream names neither its message nor its model: the summary says so by leaving them out, not as "".
    expect(result.blocks.at(-1)?.parsed).toEqual({ status: 'completed', stop_reason: 'stop' });
  });

  test('a v4 data stream: line-framed, its text joined, usage from the finish part, done', () => {
    const result = decoded('vercel-ai/data-stream-text.txt');
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(result.rules).toEqual([]);
    expect(result.end).toBe('done');
    expect(result.frames[0]).toHaveLength(6);
    expect(result.blocks.map((b) => [b.kind, b.agent])).toEqual([
      ['text', 'msg-0'],
      ['message', 'msg-0'],
    ]);
    expect(result.blocks[0]?.content).toBe('Hello, world!');
    expect(result.blocks[1]?.parsed).toMatchObject({
      id: 'msg-0',
      usage: { input_tokens: 3, output_tokens: 10 },
      stop_reason: 'stop',
    });
    expect(result.blocks[1]?.parsed).not.toHaveProperty('model');
  });
});
