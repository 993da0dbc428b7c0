import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ProxyState, SessionSummary } from '../../../src-shared/contract/payloads';
import { untilSettled } from '../../cli/commands/record';
import { createDefaultSessionService } from '../../hosts/default-service';
import { whenEvent } from '../sessions/service-testing';
import type { SessionService } from '../sessions/session-service';

/** What a proxy test works with, made afresh for each test and let go after it. */
export interface ProxyHarness {
  /** The session service the proxy runs in (a test may replace it, having disposed of it). */
  service: SessionService;
  /** The folder the proxy records into. */
  dir: string;
  /** Closes `thing` (a server, the demo agent) after the test; returns it. */
  track<T extends { close(): Promise<void> }>(thing: T): T;
  proxyTo(target: string, record?: boolean): Promise<ProxyState>;
  /** The session the proxy opened for an exchange, once it has settled. */
  settledSessionOf(path: string): Promise<SessionSummary>;
  /** Every row of a session. */
  allRows(sessionId: string): Promise<Awaited<ReturnType<SessionService['getRows']>>['rows']>;
}

export function proxyHarness(): ProxyHarness {
  let opened: { close(): Promise<void> }[] = [];
  const h: ProxyHarness = {
    service: undefined as unknown as SessionService,
    dir: '',
    track(thing) {
      opened.push(thing);
      return thing;
    },
    proxyTo: (target, record = true) =>
      h.service.startProxy({ port: 0, target, ...(record ? { recordDir: h.dir } : {}) }),
    async settledSessionOf(path) {
      const current = await h.service.getProxy();
      const sessionId = await whenEvent(
        h.service.onProxyChanged,
        (state) => state?.exchanges.find((e) => e.path === path && e.sessionId)?.sessionId,
        `the session of ${path}`,
        current ? { current } : {},
      );
      return untilSettled(
        h.service,
        sessionId,
        (s) => s.state === 'complete' || s.state === 'failed' || s.state === 'stopped' || s.awaitingTools,
      );
    },
    allRows: async (sessionId) => (await h.service.getRows({ sessionId, start: 0, count: 10_000 })).rows,
  };
  beforeEach(async () => {
    h.dir = await mkdtemp(join(tmpdir(), 'inspector-proxy-'));
    h.service = createDefaultSessionService();
  });
  afterEach(async () => {
    await h.service.dispose();
    for (const thing of opened) await thing.close();
    opened = [];
    await rm(h.dir, { recursive: true, force: true });
  });
  return h;
}
