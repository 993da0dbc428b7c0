import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ReplayState, SessionSummary } from '../../../../src-shared/contract/payloads';
import { SSE_HEADERS, startLoopbackServer, writeSlowly, type LoopbackServer } from '../../connection/loopback-testing';
import type { DemoAgent } from '../../demo-agent/index';
import { createManualClock, type ManualClock } from '../../replay/manual-clock';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { recordEvents, settled, writeRecordingFile, type EventLog } from '../service-testing';
import type { SessionService, SessionServiceDeps } from '../session-service';

/** One JSON-envelope event; `i` is also its delta, so rows show which envelope they are. */
export const envelopeEvent = (i: number, eol = '\n'): string =>
  `data: {"type":"text","agent":"a","final":false,"delta":"e${i}"}${eol}${eol}`;

const liveEvent = (i: number): string =>
  `data: {"type":"text","agent":"a","final":${i === 5},"delta":"${i === 5 ? '' : `part ${i} `}"}\n\n`;

/**
 * Test support for replay tests: a fresh session service per test (its events and replay states
 * recorded), a temporary folder, and the loopback server or demo agent a test starts, all
 * disposed after the test.
 */
export interface ReplayHarness {
  service: SessionService;
  events: EventLog;
  states: ReplayState[];
  dir: string;
  server: LoopbackServer | undefined;
  agent: DemoAgent | undefined;
  /** The replay clock tests of a `useManualClock` block advance by hand. */
  clock: ManualClock;
  /** (Re)creates the service under test with these dependencies, recording its events. */
  useService(deps?: Omit<SessionServiceDeps, 'createRecorder' | 'openSource'>): Promise<void>;
  /** In the enclosing describe block: each test's service replays on a manual clock, `clock`. */
  useManualClock(): void;
  /** A live session of six one-event chunks, 60 ms apart. */
  recordedSession(): Promise<string>;
  /** A recording of `count` one-event chunks, the first 10 ms after the request, then every `gap` ms. */
  evenRecording(count: number, gap: number): Promise<string>;
  openSettled(path: string): Promise<string>;
  summaryOf(id: string): Promise<SessionSummary>;
  previews(id: string): Promise<string[]>;
}

export function useReplayHarness(): ReplayHarness {
  const t = {
    server: undefined,
    agent: undefined,
    async useService(deps = {}) {
      (t.events as EventLog | undefined)?.dispose();
      await (t.service as SessionService | undefined)?.dispose();
      t.service = createDefaultSessionService(deps);
      t.events = recordEvents(t.service);
      t.states = [];
      t.service.onReplayState((s) => t.states.push(s));
    },
    useManualClock() {
      beforeEach(async () => {
        t.clock = createManualClock();
        await t.useService({ replayClock: t.clock });
      });
    },
    async recordedSession() {
      t.server = await startLoopbackServer(async (_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        await writeSlowly(res, [0, 1, 2, 3, 4, 5].map(liveEvent), 60);
      });
      const { id } = await t.service.connect({ url: `${t.server.url}/s`, method: 'GET', headers: [] });
      await settled(t.service, id);
      return id;
    },
    async evenRecording(count, gap) {
      const path = join(t.dir, `even-${count}-${gap}.recording`);
      await writeRecordingFile(path, [
        {
          startedAt: 990,
          chunks: Array.from({ length: count }, (_, i) => ({ t: 1000 + i * gap, text: envelopeEvent(i) })),
        },
      ]);
      return path;
    },
    async openSettled(path) {
      const { id } = await t.service.openFile({ path });
      await settled(t.service, id);
      return id;
    },
    summaryOf: async (id) => (await t.service.listSessions()).find((s) => s.id === id)!,
    previews: async (id) =>
      (await t.service.getRows({ sessionId: id, start: 0, count: 100_000 })).rows.map((r) => r.preview),
  } as ReplayHarness;

  beforeEach(async () => {
    t.dir = await mkdtemp(join(tmpdir(), 'replay-session-'));
    await t.useService();
  });

  afterEach(async () => {
    t.events.dispose();
    await t.service.dispose();
    await t.server?.close();
    await t.agent?.close();
    t.server = t.agent = undefined;
    await rm(t.dir, { recursive: true, force: true });
  });
  return t;
}
