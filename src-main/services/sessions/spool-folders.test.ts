import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runSpoolFolder, sweepStaleSpoolFolders } from './spool-folders';

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

describe('spool folders of ended runs', () => {
  test('are removed at the next start; a running process keeps its folder, other names are left alone', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'spool-sweep-'));
    parents.push(parent);
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = join(parent, `${ended}-0123abcd`);
    const mine = runSpoolFolder(parent);
    const other = join(parent, 'not-a-run');
    for (const dir of [stale, mine, other]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'session.recording'), 'data: x\n\n');
    }
    expect(await sweepStaleSpoolFolders(parent)).toEqual([basename(stale)]);
    expect([existsSync(stale), existsSync(mine), existsSync(other)]).toEqual([false, true, true]);
  });

  test('a missing parent folder is nothing to sweep', async () => {
    expect(await sweepStaleSpoolFolders(join(tmpdir(), 'no-such-spool-parent-7f3a'))).toEqual([]);
  });
});
