import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled, waitFor } from '../sessions/service-testing';
import type { SessionService } from '../sessions/session-service';
import { createWorkspace, workspacePaths, type Workspace } from './workspace';
import { aesCipher, folderPerTest, SECRET, TEMPLATE } from './requests-testing';

const tempDir = folderPerTest();

/** A session service and a workspace over it, in folders of this test's own. */
function openWorkspace(): { service: SessionService; workspace: Workspace; spoolDir: string } {
  const spoolDir = join(tempDir(), 'spool');
  const service = createDefaultSessionService({ spoolDir });
  const workspace = createWorkspace({
    userData: join(tempDir(), 'user-data'),
    cipher: aesCipher(),
    sessions: service,
    spoolDir,
  });
  return { service, workspace, spoolDir };
}

/** The environment both live tests send with: the server's URL, and the token as a secret. */
async function saveLocalEnvironment(workspace: Workspace, baseUrl: string): Promise<void> {
  await workspace.saveEnvironment({
    name: 'Local',
    variables: [
      { name: 'base_url', secret: false, value: baseUrl },
      { name: 'token', secret: true, value: SECRET },
    ],
  });
}

describe('workspace: a live session sent with an environment secret, kept as a recent session', () => {
  let server: LoopbackServer | undefined;
  let service: SessionService | undefined;
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    await service?.dispose();
    await server?.close();
    server = service = workspace = undefined;
  });

  it('the server gets the secret; the session, its spool recording and the kept recent session show {{token}}; a new workspace reopens it', async () => {
    const stream = readFixture('example_1.json.sse');
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(stream));
    });
    const userData = join(tempDir(), 'user-data');
    const spoolDir = join(tempDir(), 'spool');
    service = createDefaultSessionService({ spoolDir });
    const cipher = aesCipher();
    workspace = createWorkspace({ userData, cipher, sessions: service, spoolDir });
    await saveLocalEnvironment(workspace, server.url);
    // `ref` is not a secret-looking name: only the environment's mask hides the value there.
    const summary = await service.connect(
      await workspace.prepareConnect({
        ...TEMPLATE,
        body: { kind: 'json', text: '{"user_prompt": "hi", "ref": "{{token}}"}' },
      }),
    );
    await settled(service, summary.id);

    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(server.requests[0]?.body).toContain(SECRET);
    const detail = await service.getSession({ sessionId: summary.id });
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    expect(detail.request?.body).toContain('{{token}}');
    expect(await readFile(join(spoolDir, `${summary.id}.recording`), 'utf8')).not.toContain(SECRET);

    const recent = await waitFor(
      async () => (await workspace?.listRecentSessions())?.sessions[0],
      'the session to be kept',
    );
    expect(recent).toMatchObject({ id: summary.id, title: summary.title, format: 'json', method: 'POST' });
    expect(recent.end?.kind).toBeDefined();
    const kept = join(workspacePaths(userData).recentSessions, `${summary.id}.recording`);
    expect(await readFile(kept, 'utf8')).not.toContain(SECRET);

    // The session closes (its spool file goes) and the app restarts: the recent session reopens from the kept recording.
    await service.closeSession({ sessionId: summary.id });
    await workspace.dispose();
    await service.dispose();
    service = createDefaultSessionService({ spoolDir });
    workspace = createWorkspace({ userData, cipher, sessions: service, spoolDir });
    const listed = await workspace.listRecentSessions();
    expect(listed.sessions.map((s) => s.id)).toEqual([summary.id]);
    const reopened = await workspace.openRecentSession({ id: summary.id });
    const done = await settled(service, reopened.id);
    expect(done.title).toBe(summary.title);
    expect(done.envelopes).toBeGreaterThan(0);
  });

  it('a tool-results continuation carries the secret on the wire and {{token}} in the session; a secret host never names the session', async () => {
    server = await startLoopbackServer((req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(
        Buffer.from(
          readFixture(
            req.url?.startsWith('/agent/tool_results') ? 'frontend_tools_resume.json.sse' : 'frontend_tools.json.sse',
          ),
        ),
      );
    });
    const opened = openWorkspace();
    ({ service, workspace } = opened);
    await saveLocalEnvironment(workspace, server.url);
    const run = await service.connect(
      await workspace.prepareConnect({
        url: '{{base_url}}/agent/run',
        method: 'POST',
        headers: [['X-Trace', 't-{{token}}']],
        body: { kind: 'json', text: '{"user_prompt": "confirm", "ref": "{{token}}"}' },
      }),
    );
    await waitFor(
      async () => (await service?.listSessions())?.find((s) => s.id === run.id)?.awaitingTools,
      'the pause',
    );
    await service.sendToolResults({
      sessionId: run.id,
      results: [{ tool_use_id: 'toolu_synth_confirm', content: 'yes' }],
    });
    await waitFor(
      async () =>
        (await service?.listSessions())?.find((s) => s.id === run.id && s.legs === 2 && s.state === 'complete'),
      'the continuation',
    );
    expect(server.requests[1]?.headers['x-trace']).toBe(`t-${SECRET}`);
    const detail = await service.getSession({ sessionId: run.id });
    expect(detail.legs[1]?.request?.headers).toContainEqual(['X-Trace', 't-{{token}}']);
    expect(JSON.stringify(detail)).not.toContain(SECRET);
    expect(await readFile(join(opened.spoolDir, `${run.id}.recording`), 'utf8')).not.toContain(SECRET);

    await workspace.saveEnvironment({ name: 'Hosts', variables: [{ name: 'host', secret: true, value: '127.0.0.1' }] });
    const env = (await workspace.listEnvironments()).environments.find((e) => e.name === 'Hosts');
    await workspace.setActiveEnvironment({ id: env?.id ?? null });
    const hidden = await service.connect(
      await workspace.prepareConnect({ url: `http://{{host}}:${server.port}/agent/run`, method: 'GET', headers: [] }),
    );
    expect(hidden.title).toContain('{{host}}');
    expect(hidden.title).not.toContain('127.0.0.1');
    await settled(service, hidden.id);
  });

  it('a refused request never quotes a secret', async () => {
    ({ service, workspace } = openWorkspace());
    await workspace.saveEnvironment({ name: 'Local', variables: [{ name: 'token', secret: true, value: SECRET }] });
    // Not a URL: nothing to send it to, and no destination main could approve.
    await expect(
      workspace.prepareConnect({ url: 'http://[bad/{{token}}', method: 'GET', headers: [] }),
    ).rejects.toThrow("Refused to fill secrets into 'http://[bad/{{token}}': it is not a URL.");
    const badHeader = service.connect(
      await workspace.prepareConnect({ url: 'http://127.0.0.1:9/', method: 'GET', headers: [['X {{token}}', 'v']] }),
    );
    await expect(badHeader).rejects.toThrow("Header name 'X {{token}}' is not valid");
  });

  it('keeps at most `keep` sessions (0 keeps none) and deletes the files of the others', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end('data: {"type":"text","agent":"main","delta":"hi"}\n\ndata: [DONE]\n\n');
    });
    const userData = join(tempDir(), 'user-data');
    const spoolDir = join(tempDir(), 'spool');
    service = createDefaultSessionService({ spoolDir });
    workspace = createWorkspace({ userData, cipher: aesCipher(), sessions: service, spoolDir });
    await workspace.setRecentSessionsKeep({ keep: 2 });
    for (let i = 0; i < 3; i++) {
      const s = await service.connect({ url: `${server.url}/run${i}`, method: 'GET', headers: [] });
      await settled(service, s.id);
      await waitFor(
        async () => (await workspace?.listRecentSessions())?.sessions.some((r) => r.id === s.id),
        `session ${i} kept`,
      );
    }
    const folder = workspacePaths(userData).recentSessions;
    expect((await workspace.listRecentSessions()).sessions.map((s) => s.url)).toEqual([
      `${server.url}/run2`,
      `${server.url}/run1`,
    ]);
    expect((await readdir(folder)).filter((f) => f.endsWith('.recording'))).toHaveLength(2);
    await workspace.setRecentSessionsKeep({ keep: 0 });
    expect((await readdir(folder)).filter((f) => f.endsWith('.recording'))).toHaveLength(0);
    await expect(workspace.openRecentSession({ id: 'sgone' })).rejects.toThrow(/no longer kept/);
  });
});
