import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyState } from '../../../../src-shared/contract/payloads';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../../connection/loopback-testing';
import { createSessionRegistry, type SessionRegistry } from '../session-registry';
import { waitFor } from '../service-testing';
import { createExternalSessions, type ExternalSessions } from './external-session';

let server: LoopbackServer | undefined;
let registry: SessionRegistry | undefined;
let external: ExternalSessions | undefined;

afterEach(async () => {
  await external?.stopProxy();
  for (const rt of registry?.sessions.values() ?? []) rt.data.dispose();
  registry?.dispose();
  await server?.close();
  server = registry = external = undefined;
});

/** These tests open fewer proxied sessions than the limit: none is ever closed to make room. */
const closeNone = (): Promise<void> => Promise.reject(new Error('no session is closed to make room here'));

describe('external sessions', () => {
  it('opens a session per event stream passing through the proxy, decoded as it passes, complete at its end', async () => {
    const bytes = readFixture('example_1.json.sse');
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(bytes));
    });
    registry = createSessionRegistry({});
    external = createExternalSessions(registry, closeNone);
    const changes: (ProxyState | null)[] = [];
    registry.events.proxyChanged.event((state) => changes.push(state));
    const proxy = await external.startProxy({ port: 0, target: server.url });
    expect(changes.at(-1)?.url).toBe(proxy.url);
    const response = await fetch(`${proxy.url}/agent/run`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    const data = await waitFor(
      () => [...registry!.sessions.values()].find((rt) => rt.data.state === 'complete')?.data,
      'the proxied session',
    );
    expect(data.source).toMatchObject({ kind: 'live', method: 'GET' });
    expect(data.envelopeCount).toBe(decodeBytes(bytes).envelopes.length);
  });

  it('runs one proxy at a time, and says so when stopped', async () => {
    server = await startLoopbackServer((_req, res) => void res.end());
    registry = createSessionRegistry({});
    external = createExternalSessions(registry, closeNone);
    const changes: (ProxyState | null)[] = [];
    registry.events.proxyChanged.event((state) => changes.push(state));
    const proxy = await external.startProxy({ port: 0, target: server.url });
    await expect(external.startProxy({ port: 0, target: server.url })).rejects.toThrow(
      `The proxy is already running on ${proxy.url}; stop it first.`,
    );
    expect(await external.getProxy()).toEqual(proxy);
    await external.stopProxy();
    expect(await external.getProxy()).toBeNull();
    expect(changes.at(-1)).toBeNull();
  });
});
