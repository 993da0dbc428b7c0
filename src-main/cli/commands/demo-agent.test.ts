import { describe, expect, test } from 'vitest';
import { main } from '../main';
import { memoryIo, servingIo } from '../test-io';

describe('stream-inspector demo-agent', () => {
  test('prints its URL, serves until interrupted, then stops', async () => {
    const { io, ready, interrupt } = servingIo();
    const exit = main(['demo-agent', '--port', '0', '--pace', 'fast'], io);
    await ready;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())?.[1] ?? '';
    expect(url).not.toBe('');
    expect(io.out()).toContain(`POST ${url}/agent/run`);

    const response = await fetch(`${url}/agent/run`, {
      method: 'POST',
      body: JSON.stringify({ user_prompt: 'Think it through', format: 'xml' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect((await response.text()).endsWith('data: [DONE]\n\n')).toBe(true);

    interrupt();
    expect(await exit).toBe(0);
    await expect(fetch(`${url}/agent/scenarios`)).rejects.toThrow();
  });

  test.each([
    [['--pace', 'slow'], '--pace must be one of fast, realistic'],
    [['--port', 'http'], '--port takes a number from 0 to 65535'],
    [['extra'], "unexpected argument 'extra'"],
  ])('rejects %j with a usage error', async (args, message) => {
    const io = memoryIo();
    expect(await main(['demo-agent', ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
  });
});
