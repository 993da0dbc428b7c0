import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SSE_HEADERS,
  sleep,
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
} from '../services/connection/loopback-testing';
import { openSource } from '../services/importers/index';
import { createRecorder, openFileSink, type RecorderSink } from '../services/recording/recorder';
import { createDefaultSessionService } from '../hosts/default-service';
import { recordEvents, settled, waitFor, type EventLog } from '../services/sessions/service-testing';
import { createSessionService, type SessionService } from '../services/sessions/session-service';
import { RECONNECT_MAX_MS } from '../services/sessions/sources/live-session';
import { createManualClock, type ManualClock } from '../services/replay/manual-clock';
import { readFixture } from '../testing/fixtures';
import { tinyFilesystem } from '../testing/tiny-filesystem';

/**
 * The faults suite (docs/reliability.md, "Faults"): each test breaks the live path the way
 * the world does — a flood, a giant event, a full disk, a server that keeps hanging up — on
 * real loopback servers and real files, and states what must still hold.
 */

const AGENT = '11111111-1111-4111-8111-111111111111';
const event = (delta: string, final = false): string =>
  `data: ${JSON.stringify({ type: 'text', agent: AGENT, final, delta })}\n\n`;

let server: LoopbackServer | undefined;
let service: SessionService | undefined;
let events: EventLog | undefined;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-faults-'));
});
afterEach(async () => {
  events?.dispose();
  await service?.dispose();
  await server?.close();
  server = service = events = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(handler: LoopbackHandler): Promise<LoopbackServer> {
  server = await startLoopbackServer(handler);
  return server;
}

/**
 * The session service on a clock the test moves, its loopback servers real: `until` moves the
 * clock 100 ms per poll, so a reconnect's backoff passes in a few real milliseconds.
 */
function serviceOnClock(): {
  service: SessionService;
  clock: ManualClock;
  until: <T>(probe: () => Promise<T | undefined | false>, what: string) => Promise<T>;
} {
  const clock = createManualClock(1_000_000);
  service = createDefaultSessionService({ now: () => clock.now(), timers: clock });
  const until = <T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> =>
    waitFor(async () => (await probe()) || (await clock.advance(100), undefined), what);
  return { service, clock, until };
}

/** A file sink that writes real bytes until `limit`, then fails like the disk would. */
function failingAfter(limit: number, code: string, message: string): (path: string) => Promise<RecorderSink> {
  return async (path) => {
    const sink = await openFileSink(path);
    let written = 0;
    return {
      async write(data) {
        if (written + data.length > limit)
          throw Object.assign(new Error(`${code}: ${message}, write '${path}'`), { code });
        written += data.length;
        await sink.write(data);
      },
      close: () => sink.close(),
    };
  };
}

describe('faults: the disk fails while recording', () => {
  /** A live session recording to `path` while the server sends `count` 1 KiB events. */
  async function recordWhileStreaming(path: string, openSink?: (path: string) => Promise<RecorderSink>) {
    const count = 300;
    const sent: string[] = [];
    const { url } = await serve(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < count; i += 30) {
        const block = Array.from({ length: 30 }, (_, n) => event(`${i + n}:${'y'.repeat(1000)}`)).join('');
        sent.push(block);
        res.write(block);
        await sleep(25);
      }
      sent.push('data: [DONE]\n\n');
      res.end('data: [DONE]\n\n');
    });
    service = createSessionService({
      createRecorder: (file, options) => createRecorder(file, { ...options, ...(openSink ? { openSink } : {}) }),
      openSource,
    });
    events = recordEvents(service);
    const { id } = await service.connect({ url: `${url}/run`, method: 'GET', headers: [], recordTo: path });
    const done = await settled(service, id, 20_000);
    return { done, count, sent: sent.join('') };
  }

  async function expectValidPrefix(path: string, sent: string): Promise<void> {
    const source = await openSource(path);
    const bytes: Uint8Array[] = [];
    for await (const chunk of source.legs[0]?.chunks ?? []) bytes.push(chunk.bytes);
    const recorded = Buffer.concat(bytes).toString('utf8');
    expect(recorded.length).toBeLessThan(sent.length);
    expect(sent.startsWith(recorded)).toBe(true);
    // Only what a cut-off writer leaves: a torn last line, a leg without its end.
    expect(
      source.diagnostics
        .map((d) => d.rule)
        .filter((r) => r !== 'recording.torn-tail' && r !== 'recording.unfinished-leg'),
    ).toEqual([]);
  }

  it(
    'disk full: the live view keeps every event, the user is told, the file is a valid prefix',
    { timeout: 60_000 },
    async () => {
      const mountPoint = join(dir, 'tiny');
      await mkdir(mountPoint);
      const tiny = tinyFilesystem(mountPoint, 64);
      try {
        const path = join(mountPoint, 'run.recording');
        // Without a mount (not root, not Linux): the same failure, injected after 64 KiB.
        const { done, count, sent } = await recordWhileStreaming(
          path,
          tiny ? undefined : failingAfter(64 * 1024, 'ENOSPC', 'no space left on device'),
        );
        expect(done).toMatchObject({ state: 'complete', envelopes: count + 1 });
        expect(events?.errors.map((e) => e.message)).toEqual([
          expect.stringMatching(/^Recording to .*run\.recording stopped: ENOSPC/),
        ]);
        await expectValidPrefix(path, sent);
      } finally {
        tiny?.unmount();
      }
    },
  );

  it('permission denied mid-recording: the same guarantees', { timeout: 60_000 }, async () => {
    const path = join(dir, 'denied.recording');
    const { done, count, sent } = await recordWhileStreaming(
      path,
      failingAfter(48 * 1024, 'EACCES', 'permission denied'),
    );
    expect(done).toMatchObject({ state: 'complete', envelopes: count + 1 });
    expect(events?.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Recording to .*denied\.recording stopped: EACCES/),
    ]);
    await expectValidPrefix(path, sent);
    expect((await readFile(path)).length).toBeLessThanOrEqual(48 * 1024);
  });
});

describe('faults: reconnecting a dropped stream', () => {
  it('sends Last-Event-ID as UTF-8 bytes, after the clamped retry', { timeout: 20_000 }, async () => {
    const ids: string[] = [];
    const { url } = await serve((req, res) => {
      const at = req.rawHeaders.findIndex((h) => h.toLowerCase() === 'last-event-id');
      ids.push(at < 0 ? '' : Buffer.from(req.rawHeaders[at + 1] ?? '', 'latin1').toString('utf8'));
      res.writeHead(200, SSE_HEADERS);
      res.end(ids.length === 1 ? `retry: 1\nid: é-😀-7\n${event('a')}` : 'data: [DONE]\n\n');
    });
    service = createDefaultSessionService();
    const { id } = await service.connect({
      url: `${url}/events`,
      method: 'GET',
      headers: [],
      reconnect: { maxAttempts: 1 },
    });
    await waitFor(
      async () => (await service!.listSessions())[0]?.legs === 2 && (await settled(service!, id)),
      'the reconnect',
    );
    expect(ids).toEqual(['', 'é-😀-7']);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs[1]?.request?.headers).toContainEqual(['Last-Event-ID', 'é-😀-7']);
  });

  it('stops on a 204, saying No Content, and never asks again', { timeout: 20_000 }, async () => {
    const { url, requests } = await serve((_req, res) => {
      if (requests.length === 1) {
        res.writeHead(200, SSE_HEADERS);
        res.end(`retry: 1\n${event('a')}`);
      } else res.writeHead(204).end();
    });
    const { service, clock, until } = serviceOnClock();
    const { id } = await service.connect({
      url: `${url}/events`,
      method: 'GET',
      headers: [],
      reconnect: { maxAttempts: 5 },
    });
    const done = await until(async () => {
      const s = (await service.listSessions()).find((summary) => summary.id === id);
      return s?.legs === 2 && s.state === 'failed' ? s : undefined;
    }, 'the 204');
    expect(done.failure?.message).toMatch(/^HTTP 204 No Content/);
    // Past the longest backoff on the injected clock, then real time for a request to reach the server.
    await clock.advance(RECONNECT_MAX_MS * 2);
    await sleep(100);
    expect(requests).toHaveLength(2);
  });

  it(
    'backs off: each attempt in a row that gets nothing waits twice as long as the one before',
    { timeout: 30_000 },
    async () => {
      const at: number[] = [];
      const { service, clock } = serviceOnClock();
      const { url } = await serve((req, res) => {
        at.push(clock.now());
        if (at.length === 1) {
          res.writeHead(200, SSE_HEADERS);
          res.end(`retry: 500\n${event('a')}`);
        } else req.socket.destroy(); // the server is back up but hangs up at once
      });
      await service.connect({ url: `${url}/events`, method: 'GET', headers: [], reconnect: { maxAttempts: 3 } });
      // 10 ms of the injected clock a step, no real wait in between: a reconnect's request
      // reaches the loopback server within a step or two, so the gaps are the backoff's.
      for (let step = 0; at.length < 4 && step < 1000; step++) await clock.advance(10);
      expect(at, 'three reconnect attempts').toHaveLength(4);
      const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
      expect(gaps[0]).toBeGreaterThanOrEqual(450);
      expect(gaps[1]).toBeGreaterThanOrEqual(950);
      expect(gaps[2]).toBeGreaterThanOrEqual(1950);
      expect(gaps[1]! / gaps[0]!).toBeGreaterThan(1.6);
    },
  );

  it(
    'never re-sends a POST: a dropped POST stream ends the session, the server sees one request',
    { timeout: 20_000 },
    async () => {
      const { url, requests } = await serve((_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        res.write(`retry: 1\n${event('a')}data: {"type":"te`);
        setTimeout(() => res.destroy(), 50);
      });
      const { service, clock, until } = serviceOnClock();
      await expect(
        service.connect({
          url: `${url}/agent/run`,
          method: 'POST',
          headers: [],
          body: { kind: 'json', text: '{}' },
          reconnect: { maxAttempts: 3 },
        }),
      ).rejects.toThrow(/start a new agent run/);
      const { id } = await service.connect({
        url: `${url}/agent/run`,
        method: 'POST',
        headers: [],
        body: { kind: 'json', text: '{}' },
      });
      const done = await until(
        async () =>
          (await service.listSessions()).find(
            (s) => s.id === id && !['connecting', 'streaming', 'loading'].includes(s.state),
          ),
        `session ${id} to settle`,
      );
      expect(done.state).not.toBe('complete');
      // Past the longest backoff on the injected clock, then real time for a request to reach the server.
      await clock.advance(RECONNECT_MAX_MS * 2);
      await sleep(100);
      expect(requests).toHaveLength(1);
    },
  );
});

describe('faults: sending tool results', () => {
  it(
    'a POST whose connection drops is shown, never sent twice by accident, even when asked twice at once',
    { timeout: 20_000 },
    async () => {
      const posts: string[] = [];
      const { url } = await serve((req, res, body) => {
        if (req.url?.startsWith('/agent/run')) {
          res.writeHead(200, SSE_HEADERS);
          res.end(Buffer.from(readFixture('frontend_tools.json.sse')));
          return;
        }
        posts.push(body);
        req.socket.destroy(); // the server died while handling the results
      });
      service = createDefaultSessionService();
      const { id } = await service.connect({
        url: `${url}/agent/run`,
        method: 'POST',
        headers: [],
        body: { kind: 'json', text: '{"user_prompt":"x"}' },
      });
      await waitFor(async () => (await service!.listSessions())[0]?.awaitingTools === true || undefined, 'the pause');
      const results = [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }];
      const both = await Promise.allSettled([
        service.sendToolResults({ sessionId: id, results }),
        service.sendToolResults({ sessionId: id, results }),
      ]);
      expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const failed = await settled(service, id);
      expect(failed).toMatchObject({ state: 'failed', awaitingTools: true });
      await expect(service.sendToolResults({ sessionId: id, results })).rejects.toThrow(/confirm to send them again/);
      expect(posts).toHaveLength(1);
    },
  );
});
