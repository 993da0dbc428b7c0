import { describe, expect, it } from 'vitest';
import type { LookupFunction } from 'node:net';
import { openConnection } from './connection';
import { createNodeHttpTransport } from './http-transport';
import { refusedPort } from './loopback-testing';
import { capture, loopbackPerTest } from './connection-testing';

const { serve, get, server } = loopbackPerTest();

describe('a connection that cannot reach a server says why', () => {
  it('reports a refused connection clearly', async () => {
    const port = await refusedPort();
    const outcome = await openConnection(
      { url: new URL(`http://127.0.0.1:${port}/agent/run`), method: 'POST', headers: [] },
      capture(),
    ).done;
    expect(outcome.reason).toBe('failed');
    expect(outcome.failure).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    expect(outcome.failure?.message).toBe(
      `Connection refused by 127.0.0.1:${port}: nothing is listening there. Is the server running?`,
    );
  });

  it('reports a host name that does not resolve as a DNS failure', async () => {
    // The resolver answers as the system's does for an unknown name; no query leaves the machine.
    const notFound: LookupFunction = (hostname, _options, callback) =>
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 4);
    const transport = createNodeHttpTransport({ lookup: notFound });
    const outcome = await openConnection(
      { url: new URL('http://no-such-host.invalid/'), method: 'GET', headers: [] },
      capture(),
      { transport },
    ).done;
    expect(outcome.failure?.kind).toBe('dns');
    expect(outcome.failure?.message).toMatch(/Could not resolve the host name no-such-host\.invalid/);
  });

  it('reports a TLS failure (https spoken to a plain HTTP server)', async () => {
    await serve((_req, res) => {
      res.end('plain');
    });
    const url = new URL(server().url.replace('http:', 'https:'));
    const outcome = await openConnection({ url, method: 'GET', headers: [] }, capture()).done;
    expect(outcome.failure?.kind).toBe('tls');
    expect(outcome.failure?.message).toMatch(/^TLS handshake with 127\.0\.0\.1:\d+ failed/);
  });

  it('times out when the server accepts but never answers', async () => {
    await serve(() => {
      // never respond
    });
    const started = performance.now();
    const outcome = await openConnection(get('/hang', { timeouts: { responseMs: 200 } }), capture()).done;
    expect(outcome.failure).toMatchObject({ kind: 'timeout' });
    expect(outcome.failure?.message).toMatch(/accepted the request but sent no response within 200 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
