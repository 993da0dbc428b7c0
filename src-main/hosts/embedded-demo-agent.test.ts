import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DemoAgent } from '../services/demo-agent/index';
import { startEmbeddedDemoAgent } from './embedded-demo-agent';

const open: (DemoAgent | Server)[] = [];
afterEach(async () => {
  for (const item of open.splice(0))
    await ('url' in item ? item.close() : new Promise((resolve) => item.close(resolve)));
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the embedded demo agent', () => {
  it('takes the same port on every start, and another one only while that port is taken', async () => {
    const preferredPort = await freePort();
    const first = await startEmbeddedDemoAgent({ preferredPort });
    open.push(first);
    expect(first.url).toBe(`http://127.0.0.1:${preferredPort}`);
    const second = await startEmbeddedDemoAgent({ preferredPort });
    open.push(second);
    expect(second.url).not.toBe(first.url);
    expect((await fetch(`${second.url}/`)).status).toBe(200);
  });
});
