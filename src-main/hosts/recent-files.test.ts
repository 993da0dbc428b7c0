import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createRecentFiles } from './recent-files';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const storeIn = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'recent-files-'));
  dirs.push(dir);
  return join(dir, 'user-data', 'recent-files.json');
};

describe('recent files', () => {
  test('newest first, without repeats, at most 12, and kept for the next start', async () => {
    const path = storeIn();
    const recent = createRecentFiles(path);
    for (let i = 0; i < 14; i++) await recent.add(`/runs/${i}.recording`);
    await recent.add('/runs/5.recording');
    const expected = [
      '/runs/5.recording',
      '/runs/13.recording',
      '/runs/12.recording',
      '/runs/11.recording',
      '/runs/10.recording',
      '/runs/9.recording',
      '/runs/8.recording',
      '/runs/7.recording',
      '/runs/6.recording',
      '/runs/4.recording',
      '/runs/3.recording',
      '/runs/2.recording',
    ];
    expect(await recent.list()).toEqual(expected);
    expect(await createRecentFiles(path).list()).toEqual(expected);
  });

  test('a damaged list starts over instead of failing, and the next add writes a valid one', async () => {
    const path = storeIn();
    await createRecentFiles(path).add('/runs/a.recording');
    writeFileSync(path, '["/runs/a.rec');
    const recent = createRecentFiles(path);
    expect(await recent.list()).toEqual([]);
    await recent.add('/runs/b.recording');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['/runs/b.recording']);
  });

  test('without a path the list lives in memory', async () => {
    const recent = createRecentFiles();
    await recent.add('/runs/a.recording');
    expect(await recent.list()).toEqual(['/runs/a.recording']);
  });
});
