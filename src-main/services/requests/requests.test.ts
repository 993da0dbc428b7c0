import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../src-shared/contract/payloads';
import { readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled, waitFor } from '../sessions/service-testing';
import type { SessionService } from '../sessions/session-service';
import { createCollectionStore } from './collection-store';
import { createEnvironmentStore } from './environment-store';
import { createRequests, withoutLiteralSecrets } from './request-commands';
import { plainSecrets, type SecretCipher } from './secret-cipher';
import { createWorkspace, workspacePaths, type Workspace } from './workspace';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asi-requests-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A real reversible cipher (AES-256-GCM), standing where Electron's safeStorage seals in the app. */
function aesCipher(): SecretCipher {
  const key = randomBytes(32);
  return {
    encrypted: true,
    description: 'test cipher',
    seal(value) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(value, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), data]).toString('base64');
    },
    open(sealed) {
      const raw = Buffer.from(sealed, 'base64');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

const TEMPLATE: RequestTemplate = {
  url: '{{base_url}}/agent/run',
  method: 'POST',
  headers: [['Authorization', 'Bearer {{token}}']],
  body: { kind: 'json', text: '{"user_prompt": "hi", "api_key": "{{token}}"}' },
  format: 'json',
  inline: { mode: 'sentinel', tools: [] },
};
const SECRET = 'sk-live-CANARY-91c2';

describe('collection store (requests.json)', () => {
  it('saves, renames, duplicates and deletes; a new store over the same file sees the same list', async () => {
    const path = join(dir, 'requests.json');
    let t = 1000;
    const store = createCollectionStore(path, () => t++);
    const first = await store.save({ name: '  Run   demo ', request: TEMPLATE });
    expect(first.name).toBe('Run demo');
    const copy = await store.save({ name: `${first.name} copy`, request: first.request });
    const renamed = await store.save({ id: first.id, name: 'Renamed', request: first.request });
    expect(renamed.createdAt).toBe(first.createdAt);
    expect(renamed.updatedAt).toBeGreaterThan(first.updatedAt);
    const reopened = createCollectionStore(path);
    expect((await reopened.list()).map((r) => r.name)).toEqual(['Renamed', 'Run demo copy']);
    expect((await reopened.list())[0]?.request).toEqual(TEMPLATE);
    await reopened.remove(copy.id);
    expect((await createCollectionStore(path).list()).map((r) => r.id)).toEqual([first.id]);
  });

  it('refuses a blank name and an unknown id', async () => {
    const store = createCollectionStore(join(dir, 'requests.json'));
    await expect(store.save({ name: '   ', request: TEMPLATE })).rejects.toThrow(/needs a name/);
    await expect(store.save({ id: 'nope', name: 'x', request: TEMPLATE })).rejects.toThrow(/no saved request 'nope'/);
  });

  it('a damaged file is reported and left as it is, never overwritten', async () => {
    const path = join(dir, 'requests.json');
    await writeFile(path, '{"version": 1, "requests": [');
    const store = createCollectionStore(path);
    await expect(store.list()).rejects.toThrow(/requests.json could not be read/);
    await expect(store.save({ name: 'x', request: TEMPLATE })).rejects.toThrow(/could not be read/);
    expect(await readFile(path, 'utf8')).toBe('{"version": 1, "requests": [');
  });
});

describe('environment store (environments.json)', () => {
  it('seals secrets: the file holds no plaintext, the renderer view no value; an edit without the value keeps it', async () => {
    const path = join(dir, 'environments.json');
    const cipher = aesCipher();
    const store = createEnvironmentStore(path, cipher);
    const state = await store.save({
      name: 'Dev',
      variables: [
        { name: 'base_url', secret: false, value: 'http://x' },
        { name: 'token', secret: true, value: SECRET },
      ],
    });
    expect(state.activeId).toBe(state.environments[0]?.id);
    expect(state.environments[0]?.variables).toEqual([
      { name: 'base_url', secret: false, value: 'http://x', hasValue: true },
      { name: 'token', secret: true, hasValue: true },
    ]);
    expect(JSON.stringify(state)).not.toContain(SECRET);
    expect(await readFile(path, 'utf8')).not.toContain(SECRET);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const id = state.environments[0]?.id ?? '';
    await store.save({
      id,
      name: 'Dev',
      variables: [
        { name: 'base_url', secret: false, value: 'http://y' },
        { name: 'token', secret: true },
      ],
    });
    const reopened = createEnvironmentStore(path, cipher);
    expect((await reopened.active()).variables).toEqual([
      { name: 'base_url', value: 'http://y', secret: false },
      { name: 'token', value: SECRET, secret: true },
    ]);
  });

  it('without encryption the description says where and how secrets are kept', async () => {
    const path = join(dir, 'environments.json');
    const state = await createEnvironmentStore(path, plainSecrets(path, 'no keychain here.')).state();
    expect(state.secretStorage).toEqual({
      encrypted: false,
      description: `Secret values are stored unencrypted in ${path} (readable only by your user account, mode 0600): no keychain here.`,
    });
  });

  it('a secret sealed by a keychain this host cannot open fails the request that uses it, with a clear message', async () => {
    const path = join(dir, 'environments.json');
    await createEnvironmentStore(path, aesCipher()).save({
      name: 'Dev',
      variables: [{ name: 'token', secret: true, value: SECRET }],
    });
    const requests = createRequests(
      createCollectionStore(join(dir, 'r.json')),
      createEnvironmentStore(path, plainSecrets(path, '.')),
    );
    await expect(requests.prepareConnect({ ...TEMPLATE, url: 'http://x/{{token}}' })).rejects.toThrow(
      /encrypted by the desktop app's keychain.*enter it again/,
    );
  });

  it('duplicate names, unknown ids and deleting the active environment', async () => {
    const store = createEnvironmentStore(join(dir, 'environments.json'), aesCipher());
    await expect(
      store.save({
        name: 'E',
        variables: [
          { name: 'a', secret: false, value: '1' },
          { name: 'a', secret: false, value: '2' },
        ],
      }),
    ).rejects.toThrow(/a is defined twice/);
    await expect(store.setActive('nope')).rejects.toThrow(/no environment 'nope'/);
    const { environments } = await store.save({ name: 'E', variables: [] });
    const after = await store.remove(environments[0]?.id ?? '');
    expect(after).toMatchObject({ environments: [], activeId: null });
  });
});

describe('filling a request (request commands)', () => {
  async function requestsWith(variables: { name: string; secret: boolean; value: string }[]) {
    const envPath = join(dir, 'environments.json');
    const envs = createEnvironmentStore(envPath, aesCipher());
    if (variables.length > 0) await envs.save({ name: 'Dev', variables });
    return createRequests(createCollectionStore(join(dir, 'requests.json')), envs);
  }

  it('prepareConnect fills every reference and lists the secret values used', async () => {
    const requests = await requestsWith([
      { name: 'base_url', secret: false, value: 'http://127.0.0.1:9' },
      { name: 'token', secret: true, value: SECRET },
      { name: 'unused', secret: true, value: 'zzz' },
    ]);
    const ready = await requests.prepareConnect(TEMPLATE);
    expect(ready.url).toBe('http://127.0.0.1:9/agent/run');
    expect(ready.headers).toEqual([['Authorization', `Bearer ${SECRET}`]]);
    expect(ready.secretValues).toEqual([{ name: 'token', value: SECRET }]);
  });

  it('an unknown variable rejects before anything is sent, naming it', async () => {
    const requests = await requestsWith([{ name: 'base_url', secret: false, value: 'http://127.0.0.1:9' }]);
    await expect(requests.prepareConnect(TEMPLATE)).rejects.toThrow(
      'The request uses {{token}} (in the header value) but the environment "Dev" does not define it',
    );
  });

  it('copy as curl: references kept, filled with secrets masked, or filled whole', async () => {
    // A loopback base: a request filled with secrets goes elsewhere only where main approved it (secret-origins.test.ts).
    const requests = await requestsWith([
      { name: 'base_url', secret: false, value: 'http://127.0.0.1:9' },
      { name: 'token', secret: true, value: SECRET },
    ]);
    const literal: RequestTemplate = { ...TEMPLATE, headers: [...TEMPLATE.headers, ['X-Api-Key', 'typed-secret']] };
    const template = await requests.resolveRequest({ request: literal, mode: 'template' });
    expect(template.url).toBe('{{base_url}}/agent/run');
    expect(template.headers).toEqual([
      ['Authorization', 'Bearer {{token}}'],
      ['X-Api-Key', '[redacted]'],
    ]);
    const resolved = await requests.resolveRequest({ request: literal, mode: 'resolved' });
    expect(resolved.url).toBe('http://127.0.0.1:9/agent/run');
    expect(JSON.stringify(resolved)).not.toContain(SECRET);
    expect(JSON.stringify(resolved)).not.toContain('typed-secret');
    expect(resolved.headers[0]).toEqual(['Authorization', 'Bearer {{token}}']);
    const whole = await requests.resolveRequest({ request: literal, mode: 'with-secrets' });
    expect(whole.headers).toEqual([
      ['Authorization', `Bearer ${SECRET}`],
      ['X-Api-Key', 'typed-secret'],
    ]);
  });

  it('withoutLiteralSecrets redacts secret-named JSON fields typed as values', () => {
    const out = withoutLiteralSecrets({
      url: 'http://h/x?api_key=abc&q=1',
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: '{"password": "hunter2", "q": 1}' },
    });
    expect(out.url).toBe('http://h/x?api_key=[redacted]&q=1');
    expect(out.body?.text).toBe('{"password": "[redacted]", "q": 1}');
  });
});

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
    const userData = join(dir, 'user-data');
    const spoolDir = join(dir, 'spool');
    service = createDefaultSessionService({ spoolDir });
    const cipher = aesCipher();
    workspace = createWorkspace({ userData, cipher, sessions: service, spoolDir });
    await workspace.saveEnvironment({
      name: 'Local',
      variables: [
        { name: 'base_url', secret: false, value: server.url },
        { name: 'token', secret: true, value: SECRET },
      ],
    });
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
    const spoolDir = join(dir, 'spool');
    service = createDefaultSessionService({ spoolDir });
    workspace = createWorkspace({ userData: join(dir, 'user-data'), cipher: aesCipher(), sessions: service, spoolDir });
    await workspace.saveEnvironment({
      name: 'Local',
      variables: [
        { name: 'base_url', secret: false, value: server.url },
        { name: 'token', secret: true, value: SECRET },
      ],
    });
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
    expect(await readFile(join(spoolDir, `${run.id}.recording`), 'utf8')).not.toContain(SECRET);

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
    const spoolDir = join(dir, 'spool');
    service = createDefaultSessionService({ spoolDir });
    workspace = createWorkspace({ userData: join(dir, 'user-data'), cipher: aesCipher(), sessions: service, spoolDir });
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
    const userData = join(dir, 'user-data');
    const spoolDir = join(dir, 'spool');
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

describe('built-in variables', () => {
  it('{{demo_url}} names the embedded demo agent with no environment selected, and an environment may redefine it', async () => {
    const envs = createEnvironmentStore(join(dir, 'environments.json'), aesCipher());
    const requests = createRequests(createCollectionStore(join(dir, 'requests.json')), envs, undefined, () => [
      { name: 'demo_url', value: 'http://127.0.0.1:47800', secret: false },
    ]);
    const request = { url: '{{demo_url}}/agent/run', method: 'POST', headers: [] };
    expect((await requests.prepareConnect(request)).url).toBe('http://127.0.0.1:47800/agent/run');
    const { environments } = await envs.save({
      name: 'Other demo',
      variables: [{ name: 'demo_url', secret: false, value: 'http://127.0.0.1:9' }],
    });
    await envs.setActive(environments[0]?.id ?? null);
    expect((await requests.prepareConnect(request)).url).toBe('http://127.0.0.1:9/agent/run');
  });
});
