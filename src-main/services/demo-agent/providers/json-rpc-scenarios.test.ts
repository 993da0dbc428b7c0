import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { startDemoAgent, type DemoAgent } from '../server';

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

/** One JSON-RPC request to the demo, and the JSON-RPC messages of the SSE stream it answers with. */
async function call(path: string, request: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${demo.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', ...request }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  expect(decodeBytes(new TextEncoder().encode(text)).formats).toEqual(['json-rpc']);
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

const last = (messages: Record<string, unknown>[]): Record<string, unknown> | undefined => messages.at(-1);

describe('the demo MCP server picks its answer by the JSON-RPC method', () => {
  it('initialize and tools/list, answered with the request id', async () => {
    expect(last(await call('/mcp', { id: 'init-7', method: 'initialize', params: {} }))).toMatchObject({
      id: 'init-7',
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'demo-weather' } },
    });
    const tools = last(await call('/mcp', { id: 8, method: 'tools/list' }));
    expect(tools?.['id']).toBe(8);
    expect(JSON.stringify(tools)).toContain('get_weather');
  });

  it('tools/call streams progress before its result; for Atlantis the tool fails; book_table asks the user first', async () => {
    const weather = await call('/mcp', {
      id: 9,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: { city: 'Paris' } },
    });
    expect(weather.map((m) => m['method'] ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(last(weather)).toMatchObject({ id: 9, result: { isError: false } });
    const atlantis = await call('/mcp', {
      id: 10,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: { city: 'Atlantis' } },
    });
    expect(last(atlantis)).toMatchObject({ id: 10, result: { isError: true } });
    const booking = await call('/mcp', { id: 11, method: 'tools/call', params: { name: 'book_table' } });
    // The server's own request keeps its id; only the response answers 11.
    expect(booking[0]).toMatchObject({ id: 'srv-1', method: 'elicitation/create' });
    expect(last(booking)?.['id']).toBe(11);
  });

  it('a method it does not have is a JSON-RPC error', async () => {
    expect(last(await call('/mcp', { id: 12, method: 'prompts/list' }))).toEqual({
      jsonrpc: '2.0',
      id: 12,
      error: { code: -32601, message: 'Method not found' },
    });
  });
});

describe('the demo A2A agent', () => {
  const send = (text: string) => ({
    id: 'req-1',
    method: 'message/stream',
    params: { message: { role: 'user', messageId: 'm', parts: [{ kind: 'text', text }] } },
  });

  it('streams a task to completed by default, every event answering the request id', async () => {
    const events = await call('/a2a', send('Plan two days in Paris'));
    expect(events.every((e) => e['id'] === 'req-1')).toBe(true);
    expect(last(events)).toMatchObject({
      result: { kind: 'status-update', status: { state: 'completed' }, final: true },
    });
  });

  it('plays the scenario the message names', async () => {
    expect(last(await call('/a2a', send('please show a2a-input-required')))).toMatchObject({
      result: { status: { state: 'input-required' }, final: true },
    });
  });
});
