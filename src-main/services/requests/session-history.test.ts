import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmitter } from '../../../src-shared/contract/emitter';
import type { SessionSummary } from '../../../src-shared/contract/payloads';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled, waitFor } from '../sessions/service-testing';
import { createSessionHistory, trackEndedSessions } from './session-history';
import { spoolPath } from '../sessions/spool-folders';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asi-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function summary(id: string, change: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: `Run ${id}`,
    source: { kind: 'live', method: 'POST', url: 'http://127.0.0.1:9/agent/run' },
    state: 'complete',
    createdAt: 1,
    legs: 1,
    envelopes: 3,
    bytes: 100,
    format: 'json',
    diagnostics: { error: 0, warning: 0, info: 0 },
    awaitingTools: false,
    end: { kind: 'done', label: 'done', reason: '[DONE] received' },
    ...change,
  };
}

async function recordingFile(name: string, bytes: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, 'x'.repeat(bytes));
  return path;
}

describe('session history', () => {
  it('stays within maxBytes: the newest that fit are kept, the others deleted', async () => {
    const history = createSessionHistory({ folder: join(dir, 'recent'), maxBytes: 250 });
    for (const id of ['sa', 'sb', 'sc'])
      await history.add(summary(id), { path: await recordingFile(`${id}.spool`, 100), spool: true });
    expect((await history.list()).sessions.map((s) => s.id)).toEqual(['sc', 'sb']);
    expect((await readdir(join(dir, 'recent'))).sort()).toEqual(['index.json', 'sb.recording', 'sc.recording']);
  });

  it('links its own spool files and copies a file the user recorded to', async () => {
    const history = createSessionHistory({ folder: join(dir, 'recent') });
    const spool = await recordingFile('s1.spool', 10);
    const mine = await recordingFile('mine.recording', 10);
    await history.add(summary('s1'), { path: spool, spool: true });
    await history.add(summary('s2', { recordingPath: mine }), { path: mine, spool: false });
    expect((await stat(join(dir, 'recent', 's1.recording'))).ino).toBe((await stat(spool)).ino);
    expect((await stat(join(dir, 'recent', 's2.recording'))).ino).not.toBe((await stat(mine)).ino);
  });

  it('keeps live sessions once they ended, not files, running sessions or runs paused on frontend tools', async () => {
    const history = createSessionHistory({ folder: join(dir, 'recent') });
    const changed = createEmitter<SessionSummary[]>();
    const spool = await recordingFile('spool', 10);
    const stop = trackEndedSessions(changed.event, history, () => ({ path: spool, spool: false }));
    changed.fire([
      summary('slive', { state: 'streaming', end: undefined }),
      summary('spaused', { awaitingTools: true }),
      summary('sfile', { source: { kind: 'file', path: '/x', importer: 'sse' } }),
      summary('sdone'),
    ]);
    changed.fire([summary('sdone'), summary('slive', { state: 'stopped' })]);
    // Stopping waits for what it began keeping (a host quitting right after the last list).
    await stop();
    // On disk already, not just queued (history.list() would wait for the queue).
    const index = JSON.parse(readFileSync(join(dir, 'recent', 'index.json'), 'utf8')) as {
      entries: { session: { id: string } }[];
    };
    expect(index.entries.map((e) => e.session.id).sort()).toEqual(['sdone', 'slive']);
    changed.fire([summary('slater')]);
    expect((await history.list()).sessions.map((s) => s.id).sort()).toEqual(['sdone', 'slive']);
  });
});

describe('a live session closed right after it ends', () => {
  it('is kept from its spool recording, which the close removes, without an error', async () => {
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(readFixture('example_1.json.sse')));
    });
    const spoolDir = join(dir, 'spool');
    const service = createDefaultSessionService({ spoolDir });
    const history = createSessionHistory({ folder: join(dir, 'recent') });
    const errors: unknown[] = [];
    const stop = trackEndedSessions(
      service.onSessionsChanged,
      history,
      (s) => ({ path: spoolPath(spoolDir, s.id), spool: true }),
      undefined,
      (e) => errors.push(e),
    );
    try {
      for (const ended of ['complete', 'stopped'] as const) {
        const { id } = await service.connect({ url: `${server.url}/run`, method: 'GET', headers: [] });
        // Closed as soon as it ended, or closed while it runs (the close ends it).
        if (ended === 'complete') await settled(service, id);
        await service.closeSession({ sessionId: id });
        await expect(stat(spoolPath(spoolDir, id))).rejects.toThrow(/ENOENT/);
        const kept = await waitFor(
          async () => (await history.list()).sessions.find((s) => s.id === id),
          `session ${id} kept`,
        );
        expect(kept.end?.kind).toBe(ended === 'complete' ? 'done' : 'stopped');
        const { path } = await history.recordingOf(id);
        // The whole stream when it ended on its own; the recording's header at least when the close cut it.
        expect((await stat(path)).size).toBeGreaterThan(
          ended === 'complete' ? readFixture('example_1.json.sse').length : 0,
        );
      }
      expect(errors).toEqual([]);
    } finally {
      await stop();
      await service.dispose();
      await server.close();
    }
  });
});
