import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../src-shared/contract/payloads';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { runCli } from '../../cli/test-io';
import { SSE_HEADERS, startLoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled, useServicePerTest } from './service-testing';

/**
 * "Decode as…" on an open file (decodeAgainAs): the same file decoded again as the dialect the
 * user chooses, as a new session in the old one's place — its HAR entries, its upload's copy and
 * its title kept. `auto` detects the dialect even where the file says one was chosen.
 */

const fresh = useServicePerTest('decode-again-as-', (dir) => createDefaultSessionService({ uploadDir: dir }));

// The upstream agent's envelopes: detected as `json`, shown as generic JSON events by choice.
const FIXTURE = 'frontend_tools.json.sse';
// One that ends done, for a live run that ended.
const DONE_FIXTURE = 'example_1.json.sse';

const openIds = async (): Promise<string[]> => (await fresh.service.listSessions()).map((s) => s.id);

async function decodeAgain(sessionId: string, format: 'auto' | 'json' | 'json-events'): Promise<SessionSummary> {
  const { id } = await fresh.service.decodeAgainAs({ sessionId, format });
  return settled(fresh.service, id);
}

describe('a file decoded again as another dialect', () => {
  it('is a new session of the same file in the old one’s place, decoded as chosen', async () => {
    const { id } = await fresh.service.openFile({ path: fixturePath(FIXTURE), title: 'my run' });
    const first = await settled(fresh.service, id);
    expect(first).toMatchObject({ format: 'json', detection: { by: 'content' } });

    const again = await decodeAgain(id, 'json-events');
    expect(again.id).not.toBe(id);
    expect(again).toMatchObject({
      title: 'my run',
      state: 'complete',
      source: { kind: 'file', path: fixturePath(FIXTURE) },
      format: 'json-events',
      detection: { by: 'chosen' },
      bytes: first.bytes,
    });
    expect(await openIds()).toEqual([again.id]);
    // And back: detection finds the upstream's envelopes again.
    expect(await decodeAgain(again.id, 'auto')).toMatchObject({ format: 'json', envelopes: first.envelopes });
  });

  it('auto detects the dialect of a recording that says another was chosen, in the app and the CLI', async () => {
    const { id } = await fresh.service.openFile({ path: fixturePath(FIXTURE), format: 'json-events' });
    await settled(fresh.service, id);
    const saved = await fresh.service.saveRecording({ sessionId: id, path: join(fresh.dir, 'chosen.recording') });
    const reopened = await settled(fresh.service, (await fresh.service.openFile({ path: saved!.path })).id);
    expect(reopened).toMatchObject({ format: 'json-events', detection: { by: 'chosen' } });

    expect(await decodeAgain(reopened.id, 'auto')).toMatchObject({ format: 'json', detection: { by: 'content' } });
    const detected = await runCli(['inspect', '--json', '--format', 'auto', saved!.path]);
    expect(JSON.parse(detected.out)).toMatchObject({ formats: ['json'], detections: [{ by: 'content' }] });
    const asSaved = await runCli(['inspect', '--json', saved!.path]);
    expect(JSON.parse(asSaved.out)).toMatchObject({ formats: ['json-events'], detections: [{ by: 'chosen' }] });
  });

  it('takes over an upload’s copy: the copy stays while the new session has it and goes when it closes', async () => {
    const base64 = Buffer.from(readFixture(FIXTURE)).toString('base64');
    const { id } = await fresh.service.openUpload({ name: 'uploaded run.sse', base64 });
    const first = await settled(fresh.service, id);
    const copy = first.source.kind === 'file' ? first.source.path : '';
    expect(copy.startsWith(fresh.dir)).toBe(true);

    const again = await decodeAgain(id, 'json-events');
    expect(again).toMatchObject({
      title: 'uploaded run.sse',
      source: { kind: 'file', path: copy, uploaded: true },
      state: 'complete',
      bytes: first.bytes,
    });
    await access(copy);
    await fresh.service.closeSession({ sessionId: again.id });
    await expect(access(copy)).rejects.toThrow();
  });

  it('keeps the HAR entries the session opened', async () => {
    const entry = (url: string, text: string) => ({
      startedDateTime: '2026-03-01T12:00:00.000Z',
      request: { method: 'POST', url, headers: [] },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { size: text.length, mimeType: 'text/event-stream', text },
      },
      timings: { wait: 5, receive: 10 },
    });
    const har = join(fresh.dir, 'devtools.har');
    const stream = Buffer.from(readFixture(FIXTURE)).toString();
    const resume = Buffer.from(readFixture('frontend_tools_resume.json.sse')).toString();
    await writeFile(
      har,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [entry('http://h/agent/run', stream), entry('http://h/agent/tool_results', resume)],
        },
      }),
    );
    const { id } = await fresh.service.openFile({ path: har });
    // Waiting for its entries to be chosen, it has nothing to decode again yet.
    await expect(fresh.service.decodeAgainAs({ sessionId: id, format: 'json-events' })).rejects.toThrow(
      /Choose the HAR entries/,
    );
    await fresh.service.openHarEntries({ sessionId: id, entries: [1] });
    const chosen = await settled(fresh.service, id);
    expect(chosen.legs).toBe(1);

    const again = await decodeAgain(id, 'json-events');
    expect(again).toMatchObject({ legs: 1, format: 'json-events', source: { kind: 'file', entries: [1] } });
  });

  it('must not: a file session that may have continued live (answered against the server) is refused', async () => {
    // A recording of a live run: it has the request that an answer continues.
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture(FIXTURE));
    });
    const path = join(fresh.dir, 'live.recording');
    const live = await fresh.service.connect({
      url: `${server.url}/agent/run`,
      method: 'GET',
      headers: [],
      recordTo: path,
    });
    await settled(fresh.service, live.id);
    await server.close();
    await fresh.service.closeSession({ sessionId: live.id });
    const { id } = await fresh.service.openFile({ path });
    await settled(fresh.service, id);
    fresh.service.attachRun({ sessionId: id, headers: [] });
    await expect(fresh.service.decodeAgainAs({ sessionId: id, format: 'json-events' })).rejects.toThrow(
      /may have continued live after its file/,
    );
    expect(await openIds()).toEqual([id]);
  });

  it('decodes a live run that ended again from what it received, without sending its request again', async () => {
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture(DONE_FIXTURE));
    });
    try {
      const url = `${server.url}/agent/run`;
      const { id } = await fresh.service.connect({ url, method: 'GET', headers: [] });
      const live = await settled(fresh.service, id);
      expect(live).toMatchObject({ state: 'complete', format: 'json' });

      const again = await decodeAgain(id, 'json-events');
      expect(again).toMatchObject({
        title: live.title,
        state: 'complete',
        source: { kind: 'file', importer: 'recording', copyOf: { method: 'GET', url } },
        format: 'json-events',
        detection: { by: 'chosen' },
        bytes: live.bytes,
      });
      expect(server.requests).toHaveLength(1);
      expect(await openIds()).toEqual([again.id]);
      // The received bytes are a private copy in the upload folder, handed on when decoded again and removed with the last session.
      const copy = again.source.kind === 'file' ? again.source.path : '';
      expect(copy.startsWith(fresh.dir)).toBe(true);
      const back = await decodeAgain(again.id, 'auto');
      expect(back).toMatchObject({ format: 'json', envelopes: live.envelopes, source: { path: copy } });
      await access(copy);
      await fresh.service.closeSession({ sessionId: back.id });
      await expect(access(copy)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('must not: a live run that still streams, or waits for its tool answers, or a replay, is refused and stays open', async () => {
    let holdOpen: (() => void) | undefined;
    const server = await startLoopbackServer((req, res) => {
      res.writeHead(200, SSE_HEADERS);
      if (req.url === '/held') {
        res.write('data: {"type": "text", "agent": "a", "final": false, "delta": "hi"}\n\n');
        holdOpen = () => res.end();
      } else res.end(readFixture(FIXTURE));
    });
    try {
      const streaming = await fresh.service.connect({ url: `${server.url}/held`, method: 'GET', headers: [] });
      await expect
        .poll(async () => (await fresh.service.getSession({ sessionId: streaming.id })).summary.state)
        .toBe('streaming');
      await expect(fresh.service.decodeAgainAs({ sessionId: streaming.id, format: 'json-events' })).rejects.toThrow(
        /still streaming/,
      );
      holdOpen?.();

      const awaiting = await fresh.service.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
      expect(await settled(fresh.service, awaiting.id)).toMatchObject({ awaitingTools: true });
      await expect(fresh.service.decodeAgainAs({ sessionId: awaiting.id, format: 'json-events' })).rejects.toThrow(
        /waits for its tool answers/,
      );

      const replay = await fresh.service.startReplay({ sessionId: awaiting.id, paused: true });
      await expect(fresh.service.decodeAgainAs({ sessionId: replay.id, format: 'json-events' })).rejects.toThrow(
        /A replay plays the bytes of the session it replays/,
      );
      expect(await openIds()).toEqual(expect.arrayContaining([streaming.id, awaiting.id, replay.id]));
    } finally {
      await server.close();
    }
  });
});
