import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../src-shared/contract/payloads';
import { createCollectionStore } from './collection-store';
import { createEnvironmentStore } from './environment-store';
import { createRequests } from './request-commands';
import { plainSecrets } from './secret-cipher';
import {
  approveFromStartup,
  BROWSER_HOST_HOW_TO_ALLOW,
  createSecretOriginGate,
  type ApproveSecretOrigin,
} from './secret-origins';

/** Secrets go only where main said (docs/security.md, "Secrets go only where the user said"). */

const SECRET = 'canary-secret-origin-41b9';
const REMOTE = 'https://collector.example';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-secret-origins-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function requestsWith(approve?: ApproveSecretOrigin) {
  const path = join(dir, 'environments.json');
  const environments = createEnvironmentStore(path, plainSecrets(path, '.'));
  await environments.save({
    name: 'Dev',
    variables: [
      { name: 'token', secret: true, value: SECRET },
      { name: 'plain', secret: false, value: 'p' },
    ],
  });
  return createRequests(
    createCollectionStore(join(dir, 'requests.json')),
    environments,
    approve ? createSecretOriginGate(approve, 'How to allow.') : undefined,
  );
}

const to = (url: string, header = 'Bearer {{token}}'): RequestTemplate => ({
  method: 'GET',
  url,
  headers: [['Authorization', header]],
});

describe('where a request filled with secrets may go', () => {
  it('by default (the browser host with no --allow-secrets-to): this machine only; elsewhere refused before anything is sent, saying how to allow it', async () => {
    const requests = await requestsWith();
    await expect(requests.prepareConnect(to('http://127.0.0.1:9/agent/run'))).resolves.toMatchObject({
      secretValues: [{ name: 'token', value: SECRET }],
    });
    await expect(requests.prepareConnect(to('http://localhost:9/x'))).resolves.toBeDefined();
    await expect(requests.prepareConnect(to('http://[::1]:9/x'))).resolves.toBeDefined();
    await expect(requests.prepareConnect(to(`${REMOTE}/steal`))).rejects.toThrow(
      `Refused to send {{token}} to ${REMOTE}: that origin was not approved for secrets. ${BROWSER_HOST_HOW_TO_ALLOW}`,
    );
    // The page cannot read the values out through a curl command either.
    await expect(requests.resolveRequest({ request: to(`${REMOTE}/steal`), mode: 'with-secrets' })).rejects.toThrow(
      /Refused to send \{\{token\}\}/,
    );
    // Requests without a secret go anywhere, as before.
    await expect(requests.prepareConnect(to(`${REMOTE}/x`, 'x {{plain}}'))).resolves.toMatchObject({
      url: `${REMOTE}/x`,
    });
  });

  it('a host that asks: asked once per origin, a yes is kept for the run, a no is asked again', async () => {
    const asked: [string, readonly string[]][] = [];
    let answer = false;
    const requests = await requestsWith((origin, names) => {
      asked.push([origin, names]);
      return Promise.resolve(answer);
    });
    await expect(requests.prepareConnect(to(`${REMOTE}/a`))).rejects.toThrow(
      `Refused to send {{token}} to ${REMOTE}: that origin was not approved for secrets. How to allow.`,
    );
    answer = true;
    await expect(requests.prepareConnect(to(`${REMOTE}/b`))).resolves.toMatchObject({ url: `${REMOTE}/b` });
    await expect(requests.prepareConnect(to(`${REMOTE}/c`))).resolves.toBeDefined();
    await expect(requests.resolveRequest({ request: to(`${REMOTE}/d`), mode: 'with-secrets' })).resolves.toMatchObject({
      headers: [['Authorization', `Bearer ${SECRET}`]],
    });
    // Even loopback is asked about in a host that can ask.
    await requests.prepareConnect(to('http://127.0.0.1:9/x'));
    expect(asked).toEqual([
      [REMOTE, ['token']],
      [REMOTE, ['token']],
      ['http://127.0.0.1:9', ['token']],
    ]);
  });

  it('a secret that is the destination itself never appears in the refusal', async () => {
    const path = join(dir, 'environments.json');
    const environments = createEnvironmentStore(path, plainSecrets(path, '.'));
    await environments.save({ name: 'Dev', variables: [{ name: 'host', secret: true, value: `${SECRET}.example` }] });
    const requests = createRequests(createCollectionStore(join(dir, 'requests.json')), environments);
    const refusal = await requests
      .prepareConnect(to('https://{{host}}/x', 'none'))
      .catch((error: unknown) => (error as Error).message);
    expect(refusal).toContain('Refused to send {{host}} to https://{{host}}');
    expect(refusal).not.toContain(SECRET);
  });

  it('approveFromStartup: the named origins and loopback, nothing else', async () => {
    const approve = approveFromStartup(['https://api.example.com/', 'http://10.0.0.5:8787']);
    const verdicts = await Promise.all(
      [
        'https://api.example.com',
        'http://10.0.0.5:8787',
        'http://127.0.0.9:1',
        'http://localhost',
        'https://api.example.com:444',
        'http://api.example.com',
        'https://evil.example',
        'http://localhost.evil.example',
        'http://127.0.0.1.evil.example',
      ].map((o) => approve(o, ['t'])),
    );
    expect(verdicts).toEqual([true, true, true, true, false, false, false, false, false]);
  });
});
