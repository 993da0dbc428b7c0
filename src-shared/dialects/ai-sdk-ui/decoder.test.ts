import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, readProviderFixture, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';

const fixtures = listProviderFixtures().filter((f) => f.startsWith('ai-sdk-ui/'));

/** Each scenario's findings and end status, the same in both wires. */
const EXPECTED: Record<string, { rules: string[]; end: string; sse?: string[] }> = {
  text: { rules: [], end: 'done' },
  reasoning: { rules: [], end: 'done' },
  'parallel-tools': { rules: [], end: 'done' },
  // A run waiting for the frontend has a call without a result until its continuation runs.
  'client-tool': { rules: [], end: 'paused' },
  'client-tool-confirmed': { rules: [], end: 'done' },
  'client-tool-declined': { rules: [], end: 'done' },
  // AI SDK 5 only: the run waits for the call's approval, then the server runs it or not. A
  // continuation opened alone has the call's result without the call (in a session, the call
  // is in the leg before, and they link: session-service's answer tests).
  'tool-approval': { rules: [], end: 'paused' },
  'tool-approval-approved': { rules: ['tool.result-without-call'], end: 'done' },
  'tool-approval-denied': { rules: ['tool.result-without-call'], end: 'done' },
  'sources-data': { rules: [], end: 'done' },
  'error-midstream': { rules: ['provider.api-error'], end: 'error' },
  // The UI stream's text part has its start, so the cut leaves it open; v4 text has no end to miss.
  cut: {
    rules: ['provider.missing-terminal'],
    end: 'truncated',
    sse: ['provider.block-not-stopped', 'provider.missing-terminal', 'block.unterminated'],
  },
};

function decoded(name: string) {
  const result = decodeBytes(readProviderFixture(name));
  const end = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
  return { ...result, end: end.kind };
}

describe('AI SDK fixtures, in both wires', () => {
  test.each(fixtures)('%s: detected, decoded with exactly its findings and end status, at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readProviderFixture(name));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
    const result = decoded(name);
    const scenario = name.slice('ai-sdk-ui/'.length, name.lastIndexOf('.'));
    const expected = EXPECTED[scenario];
    expect(expected, `a scenario this test does not know: ${scenario}`).toBeDefined();
    expect(result.formats).toEqual(['ai-sdk-ui']);
    expect(rulesOf(result)).toEqual((name.endsWith('.sse') ? expected?.sse : undefined) ?? expected?.rules);
    expect(result.end).toBe(expected?.end);
  });

  test.each(fixtures)('%s: no frame is claimed by any other dialect', (name) => {
    const frames = decodeBytes(readProviderFixture(name)).frames[0] ?? [];
    for (const frame of frames.filter((f) => f.data !== '[DONE]')) {
      const claimants = DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame(frame))).map((m) => m.id);
      expect(claimants, frame.data).toEqual(['ai-sdk-ui']);
    }
  });
});

describe('blocks', () => {
  test.each(['sse', 'txt'])('reasoning (%s): thinking, then text, then the message with usage', (ext) => {
    const { blocks } = decoded(`ai-sdk-ui/reasoning.${ext}`);
    expect(blocks.map((b) => [b.kind, b.content.slice(0, 40)])).toEqual([
      ['thinking', 'The user asks for 12 × 7. 12 × 7 = 84.'],
      ['text', '12 × 7 is 84.'],
      ['message', expect.any(String)],
    ]);
    expect(blocks[2]?.parsed).toMatchObject({
      id: 'msg-reasoning',
      status: 'completed',
      stop_reason: 'stop',
      usage: { input_tokens: 20, output_tokens: 31 },
    });
  });

  it('the UI stream message names its model from the message metadata', () => {
    const message = decoded('ai-sdk-ui/text.sse').blocks.find((b) => b.kind === 'message');
    expect(message?.parsed).toMatchObject({ model: 'demo-model', usage: { inputTokens: 14, outputTokens: 9 } });
  });

  test.each(['sse', 'txt'])('parallel tools (%s): two calls with parsed input, each linked to its result', (ext) => {
    const { blocks } = decoded(`ai-sdk-ui/parallel-tools.${ext}`);
    const calls = blocks.filter((b) => b.kind === 'tool_call');
    expect(calls.map((c) => [c.toolId, c.name, c.parsed])).toEqual([
      ['call_paris', 'get_weather', { city: 'Paris' }],
      ['call_london', 'get_weather', { city: 'London' }],
    ]);
    for (const call of calls) expect(blocks[call.linkedBlock ?? -1]?.kind).toBe('tool_result');
    expect(blocks.find((b) => b.kind === 'text')?.content).toBe('Paris: 21 °C and sunny. London: 16 °C and rain.');
  });

  it('sources, a file and a data part are blocks of their own type, holding their fields', () => {
    const { blocks } = decoded('ai-sdk-ui/sources-data.sse');
    expect(blocks.map((b) => b.kind)).toEqual(['data-weather', 'text', 'source-url', 'source-url', 'file', 'message']);
    expect(JSON.parse(blocks[2]?.content ?? '')).toEqual({
      sourceId: 'src-1',
      url: 'https://en.wikipedia.org/wiki/Paris',
      title: 'Paris — Wikipedia',
    });
  });

  test.each(['sse', 'txt'])('client tool (%s): the pause names the call and carries the assistant message', (ext) => {
    const { blocks } = decoded(`ai-sdk-ui/client-tool.${ext}`);
    const pause = blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(pause?.pendingTools).toEqual([
      { toolUseId: 'call_confirm', name: 'user_confirm', input: { message: 'Delete the draft "Q3 plan"?' } },
    ]);
    const payload = pause?.parsed as { wire: string; message: Record<string, unknown> };
    expect(payload.wire).toBe(ext === 'sse' ? 'ui' : 'data');
    expect(payload.message).toMatchObject({ id: 'msg-client-tool', role: 'assistant' });
  });
});
