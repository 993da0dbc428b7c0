import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ProxyExchange, ProxyState } from '../../../src-shared/contract/payloads';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { readAll } from '../demo-agent/testing/http';
import { createDefaultSessionService } from '../../hosts/default-service';
import { recordEvents, whenEvent, type EventLog } from '../sessions/service-testing';
import { MAX_OPEN_PROXY_SESSIONS } from '../sessions/sources/external-session';
import type { SessionService } from '../sessions/session-service';

/**
 * How many proxied sessions the app keeps open: each holds spool files (descriptors, disk),
 * so a proxy that anything on the machine can stream through keeps the newest
 * MAX_OPEN_PROXY_SESSIONS, closing the oldest finished ones (docs/proxy.md).
 */

let dir: string;
let service: SessionService;
let events: EventLog;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-proxy-limit-'));
  service = createDefaultSessionService();
  events = recordEvents(service);
});
afterEach(async () => {
  events.dispose();
  await service.dispose();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Spool files this process holds open (created and unlinked at once, so listed as deleted). */
const openSpools = (): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes('stream-inspector-spool');
    } catch {
      return false; // closed while listing
    }
  }).length;

/** The proxy's exchange for `path` once its session opened or it was refused one. */
function exchangeOf(path: string): Promise<ProxyExchange> {
  const find = (state: ProxyState | null): ProxyExchange | undefined =>
    state?.exchanges.find((e) => e.path === path && (e.sessionId !== undefined || e.error !== undefined));
  return service
    .getProxy()
    .then((current) => whenEvent(service.onProxyChanged, find, `the exchange of ${path}`, current ? { current } : {}));
}

/** Resolves once no proxied session is connecting or streaming. */
async function allSettled(): Promise<void> {
  const idle = (list: { state: string }[]): boolean =>
    list.every((s) => s.state !== 'connecting' && s.state !== 'streaming');
  await whenEvent(service.onSessionsChanged, idle, 'every session to settle', {
    current: await service.listSessions(),
  });
}

it(`keeps the newest ${MAX_OPEN_PROXY_SESSIONS} proxied sessions: each new stream past that closes the oldest finished one, so spool files stay bounded`, async () => {
  // Larger than a spool file's write buffer, so that each session's spools are real open files.
  const stream = readFixture('example_1.raw.sse');
  server = await startLoopbackServer((_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    res.end(stream);
  });
  const state = await service.startProxy({ port: 0, target: server.url, recordDir: dir });
  const run = async (path: string): Promise<ProxyExchange> => {
    const { bytes } = await readAll(await fetch(`${state.url}${path}`));
    expect(bytes.length).toBe(stream.length);
    const exchange = await exchangeOf(path);
    await allSettled();
    return exchange;
  };
  const baseline = openSpools();
  for (let i = 0; i < MAX_OPEN_PROXY_SESSIONS; i++) await run(`/run/${i}`);
  const atLimit = openSpools() - baseline;
  expect(atLimit).toBeGreaterThanOrEqual(MAX_OPEN_PROXY_SESSIONS);
  const first = (await service.listSessions()).map((s) => s.id);

  const MORE = 10;
  for (let i = 0; i < MORE; i++) expect((await run(`/more/${i}`)).sessionId).toBeDefined();
  // Every stream was recorded; the oldest sessions made room, in order; no more spools than at the limit.
  const open = (await service.listSessions()).map((s) => s.id);
  expect(open).toHaveLength(MAX_OPEN_PROXY_SESSIONS);
  expect(open.slice(0, MAX_OPEN_PROXY_SESSIONS - MORE)).toEqual(first.slice(MORE));
  expect(openSpools() - baseline).toBeLessThanOrEqual(atLimit);
  expect(await readdir(dir)).toHaveLength(MAX_OPEN_PROXY_SESSIONS + MORE);
  // Said once, with where the closed sessions' recordings are.
  expect(events.errors.filter((e) => e.message.includes('older finished ones are closed'))).toEqual([
    expect.objectContaining({ message: expect.stringContaining(`their recordings stay in ${dir}`) as unknown }),
  ]);
});

it(`never closes a session still streaming: with ${MAX_OPEN_PROXY_SESSIONS} streams open, one more passes unrecorded, saying why`, async () => {
  const head = 'data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n';
  const releases: (() => void)[] = [];
  server = await startLoopbackServer((_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    res.write(head);
    releases.push(() => res.end('data: [DONE]\n\n'));
  });
  const state = await service.startProxy({ port: 0, target: server.url });
  const held = [];
  for (let i = 0; i < MAX_OPEN_PROXY_SESSIONS; i++) {
    const response = await fetch(`${state.url}/held/${i}`);
    held.push(readAll(response));
    await exchangeOf(`/held/${i}`);
  }
  const stream = `${head}data: [DONE]\n\n`;
  const extra = fetch(`${state.url}/one-too-many`).then(readAll);
  expect(await exchangeOf('/one-too-many')).toMatchObject({
    error: `Not recorded: ${MAX_OPEN_PROXY_SESSIONS} proxied sessions are still streaming or waiting for tool results; close some to record more`,
  });
  for (const release of releases.splice(0)) release();
  // The client still got every byte; the held streams were all kept.
  expect(new TextDecoder().decode((await extra).bytes)).toBe(stream);
  await Promise.all(held);
  expect(await service.listSessions()).toHaveLength(MAX_OPEN_PROXY_SESSIONS);
  // Once they finished, a new stream makes room by closing the oldest.
  await allSettled();
  const next = fetch(`${state.url}/after`).then(readAll);
  expect((await exchangeOf('/after')).sessionId).toBeDefined();
  for (const release of releases.splice(0)) release();
  await next;
});
