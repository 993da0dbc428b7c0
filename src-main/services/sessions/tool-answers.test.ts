import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixture, readFixtureText } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { openSource } from '../importers';
import { createSessionRegistry, type SessionRegistry } from './session-registry';
import { waitFor, writeRecordingFile } from './service-testing';
import { createFileSessions } from './sources/file-session';
import { createLiveSessions } from './sources/live-session';
import { createToolAnswers } from './tool-answers';

let server: LoopbackServer | undefined;
let registry: SessionRegistry | undefined;
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tool-answers-'));
});

afterEach(async () => {
  for (const rt of registry?.sessions.values() ?? []) {
    rt.current?.connection.stop();
    await rt.ending;
    rt.data.dispose();
  }
  registry?.dispose();
  await server?.close();
  server = registry = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A recording of a run paused on a frontend tool, opened as a file session. */
async function pausedFile() {
  registry = createSessionRegistry({ openSource, batchIntervalMs: 5 });
  const files = createFileSessions(registry);
  const answers = createToolAnswers(registry, createLiveSessions(registry));
  const path = join(dir, 'paused.recording');
  await writeRecordingFile(path, [
    { startedAt: 0, chunks: [{ t: 1, text: readFixtureText('frontend_tools.json.sse') }] },
  ]);
  const { id } = await files.openFile({ path });
  await waitFor(() => !registry!.runtimeOf(id).loading, 'the recording');
  return { registry, answers, id };
}

const RESULT = [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }];

describe('tool answers', () => {
  it('describes what a paused run waits for, with where its answer goes by default', async () => {
    const { registry, answers, id } = await pausedFile();
    const pending = answers.pendingInfo(registry.runtimeOf(id));
    expect(pending).toMatchObject({ leg: 0, answered: 'no', defaultPath: '/agent/tool_results' });
    expect(pending?.tools.map((t) => t.toolUseId)).toContain('toolu_synth_confirm');
  });

  it('refuses to answer a file without credentials, then answers it against the live server once attached', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(readFixture('frontend_tools_resume.json.sse')));
    });
    const { registry, answers, id } = await pausedFile();
    expect(() => answers.sendToolResults({ sessionId: id, results: RESULT })).toThrow(
      /opened from a file, so there is no live run to answer/,
    );
    answers.attachRun({
      sessionId: id,
      headers: [['Authorization', 'Bearer attached']],
      url: `${server.url}/agent/run?format=json`,
    });
    expect(answers.sendToolResults({ sessionId: id, results: RESULT })).toEqual({ leg: 1 });
    await waitFor(() => registry.runtimeOf(id).data.state === 'complete', 'the continuation');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/agent/tool_results?format=json' });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer attached');
    expect(answers.pendingInfo(registry.runtimeOf(id))).toBeNull();
  });

  it('checks the results against the pending tools before anything is sent', async () => {
    const { answers, id, registry } = await pausedFile();
    answers.attachRun({ sessionId: id, headers: [], url: 'http://127.0.0.1:9/agent/run' });
    expect(() =>
      answers.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'toolu_unknown', content: 'x' }] }),
    ).toThrow();
    expect(registry.runtimeOf(id).data.legs).toHaveLength(1);
  });
});
