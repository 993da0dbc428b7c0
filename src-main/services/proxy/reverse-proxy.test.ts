import { afterEach, describe, expect, it } from 'vitest';
import { SSE_HEADERS, sleep, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { sendRaw, statusOf } from './raw-http-testing';
import { resolveRequestTarget } from './request-target';
import { startReverseProxy, type ProxyExchange, type ReverseProxy } from './reverse-proxy';

/** What a hostile client can send the proxy (docs/proxy.md, "What it refuses"). */

const CANARY = 'canary-relay-7d2f';
let target: LoopbackServer;
let elsewhere: LoopbackServer;
let proxy: ReverseProxy;
let exchanges: ProxyExchange[];

async function start(targetPath = ''): Promise<void> {
  target = await startLoopbackServer((_req, res) => void res.end('target'));
  elsewhere = await startLoopbackServer((_req, res) => void res.end('elsewhere'));
  exchanges = [];
  proxy = await startReverseProxy({
    target: new URL(`${target.url}${targetPath}`),
    port: 0,
    onExchange: (e) => void (exchanges.includes(e) || exchanges.push(e)),
  });
}

afterEach(async () => {
  await proxy?.close();
  await target?.close();
  await elsewhere?.close();
});

const withCredentials = (requestTarget: string): string =>
  `GET ${requestTarget} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${CANARY}\r\nCookie: s=${CANARY}\r\nConnection: close\r\n\r\n`;

describe('request targets', () => {
  it('a target naming an impossible port is forwarded as a path or refused, and the proxy stays up', async () => {
    await start();
    const answer = await sendRaw(proxy.port, withCredentials('//a:99999/x'));
    expect([200, 400]).toContain(statusOf(answer));
    // Still serving.
    expect(statusOf(await sendRaw(proxy.port, withCredentials('/ok')))).toBe(200);
  });

  it('no request target reaches another origin than the target, with or without the credentials', async () => {
    await start();
    const other = `127.0.0.1:${elsewhere.port}`;
    const shapes = [
      `//${other}/x`,
      `/\\${other}/x`,
      `///${other}/x`,
      `/\\\\${other}/x`,
      `//user:pw@${other}/x`,
      `//${other}`,
      `/\\/${other}/x`,
      `http://${other}/x`,
      `//localhost:${elsewhere.port}/x`,
      `*`,
      `${other}/x`,
      `/%2F%2F${other}/x`,
      `/..//${other}/x`,
    ];
    for (const shape of shapes) {
      const status = statusOf(await sendRaw(proxy.port, withCredentials(shape)));
      expect([200, 400], shape).toContain(status);
    }
    expect(elsewhere.requests).toEqual([]);
    // What reached the target went to the target's origin, as paths.
    for (const received of target.requests) expect(received.url.startsWith('/')).toBe(true);
  });

  it('the absolute form and `*` are refused with a 400 that says why, and listed', async () => {
    await start();
    const answer = await sendRaw(proxy.port, withCredentials(`http://127.0.0.1:${elsewhere.port}/x`));
    expect(statusOf(answer)).toBe(400);
    expect(answer).toContain('The proxy forwards paths such as /agent/run');
    expect(statusOf(await sendRaw(proxy.port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toBe(400);
    expect(exchanges.map((e) => [e.status, e.error !== undefined])).toEqual([
      [400, true],
      [400, true],
    ]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a target with a base path: the client path is appended, and `..` may not leave it', async () => {
    await start('/api');
    expect(statusOf(await sendRaw(proxy.port, withCredentials('/agent/run?x=1')))).toBe(200);
    expect(target.requests.map((r) => r.url)).toEqual(['/api/agent/run?x=1']);
    const escaped = await sendRaw(proxy.port, withCredentials('/../admin'));
    expect(statusOf(escaped)).toBe(400);
    expect(escaped).toContain('resolves outside /api');
    expect(target.requests).toHaveLength(1);
  });

  it('resolveRequestTarget: a table of shapes', () => {
    const base = new URL('http://127.0.0.1:8787/');
    const resolved = (t: string): string => {
      const r = resolveRequestTarget(base, t);
      return 'refused' in r ? 'refused' : r.url.href;
    };
    expect(resolved('/agent/run?a=1')).toBe('http://127.0.0.1:8787/agent/run?a=1');
    expect(resolved('//evil.example/x')).toBe('http://127.0.0.1:8787//evil.example/x');
    expect(resolved('/\\evil.example/x')).toBe('http://127.0.0.1:8787//evil.example/x');
    expect(resolved('//user:pw@evil.example/x')).toBe('http://127.0.0.1:8787//user:pw@evil.example/x');
    expect(resolved('http://evil.example/x')).toBe('refused');
    expect(resolved('evil.example/x')).toBe('refused');
    expect(resolved('*')).toBe('refused');
    expect(resolved('')).toBe('refused');
    const withBase = new URL('http://127.0.0.1:8787/api/');
    expect(resolveRequestTarget(withBase, '/x')).toMatchObject({ path: '/api/x' });
    expect(resolveRequestTarget(withBase, '/%2e%2e/x')).toHaveProperty('refused');
  });
});

describe('headers and failures', () => {
  it('headers the Connection header names are not forwarded, either way', async () => {
    target = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { connection: 'x-upstream-hop', 'x-upstream-hop': 'no', 'x-kept': 'yes' });
      res.end('ok');
    });
    elsewhere = await startLoopbackServer((_req, res) => void res.end());
    proxy = await startReverseProxy({ target: new URL(target.url), port: 0 });
    const answer = await sendRaw(
      proxy.port,
      'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close, X-Hop, authorization\r\nX-Hop: secret\r\nAuthorization: Bearer a\r\nX-End: 1\r\n\r\n',
    );
    expect(statusOf(answer)).toBe(200);
    expect(target.requests[0]!.headers['x-hop']).toBeUndefined();
    expect(target.requests[0]!.headers['authorization']).toBeUndefined();
    expect(target.requests[0]!.headers['x-end']).toBe('1');
    expect(answer.toLowerCase()).not.toContain('x-upstream-hop: no');
    expect(answer.toLowerCase()).toContain('x-kept: yes');
  });

  it('a server that resets the connection mid-stream is reported as a reset, not as unreachable', async () => {
    target = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: {}\n\n');
      await sleep(50);
      res.socket!.resetAndDestroy();
    });
    elsewhere = await startLoopbackServer((_req, res) => void res.end());
    exchanges = [];
    let exchangeEnded = (): void => undefined;
    const ended = new Promise<void>((resolve) => (exchangeEnded = resolve));
    proxy = await startReverseProxy({
      target: new URL(target.url),
      port: 0,
      onExchange: (e) => {
        if (!exchanges.includes(e)) exchanges.push(e);
        if (e.endedAt !== undefined) exchangeEnded();
      },
    });
    await sendRaw(proxy.port, 'GET /run HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    await ended;
    expect(exchanges[0]!.error).toBe("The server's response broke off: the connection was reset");
  });
});
