import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestTemplate } from '../../../src-shared/contract/payloads';
import { createCollectionStore } from './collection-store';
import { createEnvironmentStore } from './environment-store';
import { createRequests, withoutLiteralSecrets } from './request-commands';
import { aesCipher, folderPerTest, SECRET, TEMPLATE } from './requests-testing';

const tempDir = folderPerTest();

describe('filling a request (request commands)', () => {
  async function requestsWith(variables: { name: string; secret: boolean; value: string }[]) {
    const envPath = join(tempDir(), 'environments.json');
    const envs = createEnvironmentStore(envPath, aesCipher());
    if (variables.length > 0) await envs.save({ name: 'Dev', variables });
    return createRequests(createCollectionStore(join(tempDir(), 'requests.json')), envs);
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

describe('built-in variables', () => {
  it('{{demo_url}} names the embedded demo agent with no environment selected, and an environment may redefine it', async () => {
    const envs = createEnvironmentStore(join(tempDir(), 'environments.json'), aesCipher());
    const requests = createRequests(createCollectionStore(join(tempDir(), 'requests.json')), envs, undefined, () => [
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
