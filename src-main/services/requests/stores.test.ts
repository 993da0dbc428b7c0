import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCollectionStore } from './collection-store';
import { createEnvironmentStore } from './environment-store';
import { createRequests } from './request-commands';
import { plainSecrets } from './secret-cipher';
import { aesCipher, folderPerTest, SECRET, TEMPLATE } from './requests-testing';

const tempDir = folderPerTest();

describe('collection store (requests.json)', () => {
  it('saves, renames, duplicates and deletes; a new store over the same file sees the same list', async () => {
    const path = join(tempDir(), 'requests.json');
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
    const store = createCollectionStore(join(tempDir(), 'requests.json'));
    await expect(store.save({ name: '   ', request: TEMPLATE })).rejects.toThrow(/needs a name/);
    await expect(store.save({ id: 'nope', name: 'x', request: TEMPLATE })).rejects.toThrow(/no saved request 'nope'/);
  });

  it('a damaged file is reported and left as it is, never overwritten', async () => {
    const path = join(tempDir(), 'requests.json');
    await writeFile(path, '{"version": 1, "requests": [');
    const store = createCollectionStore(path);
    await expect(store.list()).rejects.toThrow(/requests.json could not be read/);
    await expect(store.save({ name: 'x', request: TEMPLATE })).rejects.toThrow(/could not be read/);
    expect(await readFile(path, 'utf8')).toBe('{"version": 1, "requests": [');
  });
});

describe('environment store (environments.json)', () => {
  it('seals secrets: the file holds no plaintext, the renderer view no value; an edit without the value keeps it', async () => {
    const path = join(tempDir(), 'environments.json');
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
    const path = join(tempDir(), 'environments.json');
    const state = await createEnvironmentStore(path, plainSecrets(path, 'no keychain here.')).state();
    expect(state.secretStorage).toEqual({
      encrypted: false,
      description: `Secret values are stored unencrypted in ${path} (readable only by your user account, mode 0600): no keychain here.`,
    });
  });

  it('a secret sealed by a keychain this host cannot open fails the request that uses it, with a clear message', async () => {
    const path = join(tempDir(), 'environments.json');
    await createEnvironmentStore(path, aesCipher()).save({
      name: 'Dev',
      variables: [{ name: 'token', secret: true, value: SECRET }],
    });
    const requests = createRequests(
      createCollectionStore(join(tempDir(), 'r.json')),
      createEnvironmentStore(path, plainSecrets(path, '.')),
    );
    await expect(requests.prepareConnect({ ...TEMPLATE, url: 'http://x/{{token}}' })).rejects.toThrow(
      /encrypted by the desktop app's keychain.*enter it again/,
    );
  });

  it('duplicate names, unknown ids and deleting the active environment', async () => {
    const store = createEnvironmentStore(join(tempDir(), 'environments.json'), aesCipher());
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
