import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { startDemoAgent, type DemoAgent } from '../server';
import { PROVIDER_APIS, scenarioSse } from './index';
import { samplePath } from './types';

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${demo.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the demo agent serves the provider APIs', () => {
  for (const api of PROVIDER_APIS) {
    it(`${api.id}: every scenario streams its fixture bytes and decodes as ${api.dialect}`, async () => {
      for (const scenario of api.scenarios) {
        const path = samplePath(api);
        const response = await post(`${path}${path.includes('?') ? '&' : '?'}scenario=${scenario.id}`, {
          model: 'demo',
          stream: true,
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(response.headers.get('content-type')).toContain(api.headers?.['content-type'] ?? 'text/event-stream');
        for (const [name, value] of Object.entries(api.headers ?? {})) expect(response.headers.get(name)).toBe(value);
        const bytes = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
        if (scenario.cut) continue; // the connection drops; fetch may keep the bytes or fail the body
        expect(new TextDecoder().decode(bytes), scenario.id).toBe(scenarioSse(api, scenario));
        expect(decodeBytes(bytes).formats).toEqual([api.dialect]);
      }
    });
  }

  it('Gemini without alt=sse: the same responses as one JSON array, streamed, decoded element by element', async () => {
    const gemini = PROVIDER_APIS.find((api) => api.dialect === 'gemini')!;
    const response = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?scenario=grounding', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const body = await response.text();
    expect(body.startsWith('[{\r\n  "candidates"')).toBe(true);
    expect(body.endsWith('}\r\n]')).toBe(true);
    const decoded = decodeBytes(Buffer.from(body));
    expect(decoded.formats).toEqual(['gemini']);
    expect(decoded.diagnostics).toEqual([]);
    expect(decoded.frames[0]).toHaveLength(gemini.scenarios.find((s) => s.id === 'grounding')!.events.length);
    const sse = await post(`${samplePath(gemini)}&scenario=grounding`, { contents: [] });
    expect(decoded.blocks.map((b) => b.content)).toEqual(
      decodeBytes(new Uint8Array(await sse.arrayBuffer())).blocks.map((b) => b.content),
    );
  });

  it('Gemini: the scenario named in the last user content, without "stream": true', async () => {
    const response = await post('/v1beta/models/m:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'show me code-execution' }] }],
    });
    expect(await response.text()).toContain('executableCode');
  });

  it('picks the scenario named in the last user message, and the first one otherwise', async () => {
    const named = await post('/v1/responses', { model: 'demo', stream: true, input: 'show me the refusal please' });
    expect(await named.text()).toContain('response.refusal.delta');
    const plain = await post('/v1/messages', {
      model: 'demo',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    expect(await plain.text()).toBe(scenarioSse(PROVIDER_APIS[0]!, PROVIDER_APIS[0]!.scenarios[0]!));
  });

  it('answers a request without "stream": true with a 400, and an unknown scenario with a 422', async () => {
    const unstreamed = await post('/v1/messages', { model: 'demo', messages: [] });
    expect(unstreamed.status).toBe(400);
    expect(await unstreamed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect((await post('/v1/responses?scenario=nope', { stream: true })).status).toBe(422);
  });

  it('a cut scenario ends without its terminal event, and the decoder says so', async () => {
    const response = await post('/v1/messages?scenario=cut', { stream: true });
    const reader = response.body?.getReader();
    const parts: Uint8Array[] = [];
    try {
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read())
        parts.push(read.value as Uint8Array);
    } catch {
      // the premature end of the body
    }
    const bytes = new Uint8Array(Buffer.concat(parts));
    expect(decodeBytes(bytes).diagnostics.map((d) => d.rule)).toContain('provider.missing-terminal');
  });

  it('/api/chat: a UI message body picks its scenario from the last user message’s parts', async () => {
    const text = await post('/api/chat', {
      id: 'chat',
      messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'show me reasoning' }] }],
    });
    expect(await text.text()).toContain('"type":"reasoning-start"');
  });

  it('/api/chat: the conversation sent back with the tool answered continues the run, whatever scenario it asked first', async () => {
    const assistant = (output: string) => ({
      id: 'msg-client-tool',
      role: 'assistant',
      parts: [{ type: 'tool-user_confirm', toolCallId: 'call_confirm', state: 'output-available', input: {}, output }],
    });
    const user = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'Delete my draft' }] };
    const yes = await post('/api/chat', { id: 'c', scenario: 'client-tool', messages: [user, assistant('yes')] });
    expect(await yes.text()).toContain('the draft \\"Q3 plan\\" is deleted');
    const no = await post('/api/chat', { id: 'c', scenario: 'client-tool', messages: [user, assistant('no')] });
    expect(await no.text()).toContain('stays');
    // v4: the tool invocation's result.
    const v4 = await post('/api/chat?protocol=data', {
      id: 'c',
      messages: [
        user,
        {
          id: 'msg-client-tool',
          role: 'assistant',
          content: '',
          parts: [
            {
              type: 'tool-invocation',
              toolInvocation: { state: 'result', toolCallId: 'call_confirm', toolName: 'user_confirm', result: 'yes' },
            },
          ],
        },
      ],
    });
    expect(v4.headers.get('x-vercel-ai-data-stream')).toBe('v1');
    expect(await v4.text()).toContain('0:"Confirmed — "');
  });
});
