import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { startDemoAgent, type DemoAgent } from '../server';
import { chatSse, OPENAI_CHAT_SCENARIOS } from './openai-chat-scenarios';

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

const post = (body: unknown): Promise<Response> =>
  fetch(`${demo.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the demo agent at POST /v1/chat/completions', () => {
  it('answers a request for n = 2 choices with the two-choice scenario, one message per choice', async () => {
    const response = await post({ model: 'gpt-4o', stream: true, n: 2, messages: [{ role: 'user', content: 'hi' }] });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const scenario = OPENAI_CHAT_SCENARIOS.find((s) => s.id === 'n-choices');
    expect(new TextDecoder().decode(bytes)).toBe(scenario?.events.map(chatSse).join(''));
    expect(decodeBytes(bytes).blocks.filter((b) => b.kind === 'message')).toHaveLength(2);
  });

  it('writes keep-alive comments as SSE comment lines, which no event carries', async () => {
    const response = await post({ stream: true, messages: [{ role: 'user', content: 'show openrouter-error' }] });
    const text = await response.text();
    expect(text.startsWith(': OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\ndata: {')).toBe(true);
    expect(decodeBytes(new TextEncoder().encode(text)).frames[0]?.length).toBe(4);
  });
});
